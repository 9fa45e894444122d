package dev.flowscale.charts;

import com.marcnuri.helm.DryRun;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;

/** The chart under test, run through the embedded Helm. */
final class FlowscaleChart {
    static final Path DIR = Path.of("flowscale");
    static final String RELEASE = "flowscale";
    static final String NAMESPACE = "flowscale-system";

    /** helm template assumes Kubernetes 1.20 without a cluster; the chart needs 1.25 or later. */
    static final String KUBE_VERSION = "v1.31.0";

    private FlowscaleChart() {}

    /**
     * {@code helm template} of the case's values, CRDs included; throws with Helm's message on
     * errors.
     */
    static Rendered template(ValuesCase values) {
        return template(values.write());
    }

    static Rendered template(Path valuesFile) {
        TemplateCommand command =
                new Helm(DIR)
                        .template()
                        .withName(RELEASE)
                        .withNamespace(NAMESPACE)
                        .withKubeVersion(KUBE_VERSION)
                        .withValuesFile(valuesFile);
        return Rendered.parse(command.call());
    }

    /** The release notes (NOTES.txt) of a client-only dry-run install with the case's values. */
    static String notes(ValuesCase values) {
        return new Helm(DIR)
                .install()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION)
                .withValuesFile(values.write())
                .clientOnly()
                .withDryRunOption(DryRun.CLIENT)
                .call()
                .getOutput();
    }

    /**
     * {@code helm lint --strict} of a copy of the chart whose values.yaml holds the case's values.
     */
    static LintResult lint(ValuesCase values) {
        Path copy = ChartCopy.withValues(DIR, values);
        return new Helm(copy).lint().strict().call();
    }
}
