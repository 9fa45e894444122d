package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.StreamJob;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CRD generated from the Java model must equal the chart's copy. To refresh the copy after a
 * model change: {@code mvn -pl k8s-operator test -Dtest=StreamJobCrdTest
 * -Dflowscale.crd.update=true}.
 */
public class StreamJobCrdTest {
    static final String FILE_NAME = "streamjobs.flowscale.dev-v1.yml";

    @TempDir Path out;

    @Test
    void theCheckedInCrdEqualsTheOneGeneratedFromTheModel() throws IOException {
        String generated = generate();
        Path checkedIn = checkedInCrd();
        if (Boolean.getBoolean("flowscale.crd.update")) {
            Files.writeString(checkedIn, generated);
        }
        assertThat(checkedIn)
                .as(
                        "%s is stale: regenerate it with -Dflowscale.crd.update=true (see this test's"
                                + " Javadoc)",
                        checkedIn)
                .exists();
        assertThat(Files.readString(checkedIn))
                .as("%s is stale: regenerate it with -Dflowscale.crd.update=true", checkedIn)
                .isEqualTo(generated);
    }

    @Test
    void theSchemaRequiresTheJobImageAndSavepointsAndBoundsTheAutoscaler() throws IOException {
        JSONSchemaProps spec =
                version().getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        // Required unless spec.flink targets a Flink job: a CEL rule on spec says so.
        assertThat(spec.getXKubernetesValidations())
                .anySatisfy(
                        rule ->
                                assertThat(rule.getRule())
                                        .isEqualTo(
                                                "has(self.flink) || (has(self.image) &&"
                                                        + " has(self.job) && has(self.savepoints))"));
        JSONSchemaProps autoscaler = spec.getProperties().get("autoscaler");
        assertThat(autoscaler.getProperties().get("mode").getEnum())
                .extracting(Object::toString)
                .containsExactlyInAnyOrder("\"auto\"", "\"recommend\"", "\"off\"");
        assertThat(autoscaler.getProperties().get("minParallelism").getMinimum()).isEqualTo(1.0);
        assertThat(autoscaler.getProperties().get("targetUtilization").getMaximum()).isEqualTo(1.0);
        assertThat(autoscaler.getXKubernetesValidations())
                .extracting(r -> r.getRule())
                .containsExactly(
                        "!has(self.minParallelism) || !has(self.maxParallelism)"
                                + " || self.minParallelism <= self.maxParallelism");
        assertThat(autoscaler.getProperties().get("mode").getDefault())
                .as(
                        "no schema default: the operator's"
                                + " defaults (AutoscalerDefaults) fill in what a job leaves out")
                .isNull();
        assertThat(spec.getProperties().get("job").getXKubernetesValidations()).hasSize(1);
    }

    @Test
    void theCrdHasAStatusSubresourceAShortNameAndPrinterColumns() throws IOException {
        CustomResourceDefinition crd = parse();
        assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("sj");
        assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
        CustomResourceDefinitionVersion version = version();
        assertThat(version.getSubresources().getStatus()).isNotNull();
        assertThat(version.getAdditionalPrinterColumns())
                .extracting(c -> c.getName())
                .containsExactlyInAnyOrder("Phase", "Parallelism", "Last Decision", "Age");
    }

    private CustomResourceDefinitionVersion version() throws IOException {
        return parse().getSpec().getVersions().get(0);
    }

    private CustomResourceDefinition parse() throws IOException {
        return Serialization.unmarshal(generate(), CustomResourceDefinition.class);
    }

    private String generate() throws IOException {
        new CRDGenerator()
                .inOutputDir(out.toFile())
                .forCRDVersions("v1")
                .customResourceClasses(StreamJob.class)
                .detailedGenerate();
        return Files.readString(out.resolve(FILE_NAME));
    }

    public static Path checkedInCrd() {
        String configured = System.getProperty("flowscale.crd.file");
        return configured != null
                ? Paths.get(configured)
                : Paths.get("../charts/flowscale/crds", FILE_NAME);
    }
}
