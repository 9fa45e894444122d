package dev.flowscale.charts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A documented combination of chart values: a name and the values file that sets it. */
record ValuesCase(String name, String yaml) {

    /**
     * Every combination the chart's README documents; lint, template and schema tests use them all.
     */
    static final List<ValuesCase> DOCUMENTED =
            List.of(
                    new ValuesCase("defaults", ""),
                    new ValuesCase("namespaced watch", "watchNamespaces: [team-a, team-b]\n"),
                    new ValuesCase(
                            "monitors",
                            "serviceMonitor: {enabled: true, interval: 20s}\n"
                                    + "podMonitor: {enabled: true, interval: 10s}\n"),
                    new ValuesCase(
                            "namespaced monitors",
                            "watchNamespaces: [team-a, team-b]\n"
                                    + "podMonitor: {enabled: true}\n"),
                    new ValuesCase("dashboard off", "dashboard: {enabled: false}\n"),
                    new ValuesCase(
                            "autoscaler defaults",
                            "autoscalerDefaults:\n  mode: auto\n  policyInterval: 1m\n"
                                    + "  warmUp: 90s\n  targetUtilization: 0.8\n  minParallelism: 2\n  maxParallelism: 64\n"
                                    + "  scaleDownDelay: 10m\n  keyGroupAlignment: true\n"),
                    new ValuesCase("one replica", "replicas: 1\nlogLevel: DEBUG\n"),
                    new ValuesCase(
                            "runner network policy",
                            "watchNamespaces: [team-a]\n"
                                    + "networkPolicy: {namespaces: [team-a, team-c], metricsFrom: [{namespaceSelector:"
                                    + " {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]}\n"
                                    + "runnerTimeouts: {deploy: 10m, rescale: 90s}\n"),
                    new ValuesCase(
                            "runner defaults",
                            "runnerDefaults: {retain: 5, inPlacePodResize: false,"
                                    + " retryBackoff: 30s, maxRetryBackoff: 10m}\n"));

    static ValuesCase named(String name) {
        return DOCUMENTED.stream()
                .filter(c -> c.name.equals(name))
                .findFirst()
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "no documented values case '" + name + "'"));
    }

    /** Writes the values to a file under target/values and returns its path. */
    Path write() {
        try {
            Path file = Path.of("target", "values", name.replace(' ', '-') + ".yaml");
            Files.createDirectories(file.getParent());
            return Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the values of case '" + name + "'", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
