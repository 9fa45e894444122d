package dev.flowscale.charts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The dashboard file of the chart, read with Jackson: its panels, their queries and the annotation
 * queries.
 */
final class DashboardJson {
    /** The dashboard, relative to the charts module. */
    static final Path FILE = Path.of("flowscale", "dashboards", "flowscale-scaling.json");

    /**
     * One PromQL expression of the dashboard, where it comes from (for messages) and the text
     * Grafana renders from its series' labels (a target's legend; an annotation's title and text).
     */
    record Query(String where, String expr, String labelTemplate) {
        private static final Pattern LABEL = Pattern.compile("\\{\\{\\s*(\\w+)\\s*}}");

        /** The labels the template refers to, e.g. [operator, job] for "{{operator}} ({{job}})". */
        List<String> templateLabels() {
            return LABEL.matcher(labelTemplate).results().map(m -> m.group(1)).toList();
        }
    }

    private final JsonNode root;

    private DashboardJson(JsonNode root) {
        this.root = root;
    }

    static DashboardJson load() {
        Path file = ChartsModule.dir().resolve(FILE);
        try {
            return new DashboardJson(new ObjectMapper().readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the dashboard " + file + ": " + e.getMessage(), e);
        }
    }

    JsonNode root() {
        return root;
    }

    List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        root.path("panels").forEach(panels::add);
        return panels;
    }

    /** Every panel target's expression, named "panel 'title' target A". */
    List<Query> targets() {
        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : panels()) {
            panel.path("targets")
                    .forEach(
                            t ->
                                    queries.add(
                                            new Query(
                                                    "panel '"
                                                            + panel.path("title").asText()
                                                            + "' target "
                                                            + t.path("refId").asText(),
                                                    t.path("expr").asText(),
                                                    t.path("legendFormat").asText())));
        }
        return queries;
    }

    /** The expressions of the Prometheus annotations (the built-in Grafana annotation has none). */
    List<Query> annotations() {
        List<Query> queries = new ArrayList<>();
        root.path("annotations")
                .path("list")
                .forEach(
                        a -> {
                            if (a.has("expr")) {
                                queries.add(
                                        new Query(
                                                "annotation '" + a.path("name").asText() + "'",
                                                a.path("expr").asText(),
                                                a.path("titleFormat").asText()
                                                        + " "
                                                        + a.path("textFormat").asText()));
                            }
                        });
        return queries;
    }

    /** Targets and annotations: every PromQL expression Grafana sends to Prometheus. */
    List<Query> allQueries() {
        List<Query> all = new ArrayList<>(targets());
        all.addAll(annotations());
        return all;
    }

    JsonNode variable(String name) {
        for (JsonNode v : root.path("templating").path("list")) {
            if (name.equals(v.path("name").asText())) {
                return v;
            }
        }
        throw new AssertionError("the dashboard has no template variable '" + name + "'");
    }
}
