package dev.flowscale.collector.source;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.collector.CollectorException;
import dev.flowscale.collector.api.InstanceCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The flowscale series of one Prometheus instant-query result, grouped per operator instance.
 * An instance is reported only when all six of its counters are present.
 */
final class PromSeries {
    private static final List<String> COUNTERS = List.of("flowscale_records_in_total",
            "flowscale_records_out_total", "flowscale_useful_time_seconds_total",
            "flowscale_wait_input_time_seconds_total", "flowscale_backpressure_time_seconds_total",
            "flowscale_observed_time_seconds_total");
    private static final String BACKLOG = "flowscale_source_backlog_records";
    private static final String PARALLELISM = "flowscale_operator_parallelism";

    /** Values per operator, then instance index, then metric name. */
    private final Map<String, Map<Integer, Map<String, Double>>> values = new TreeMap<>();
    private final Map<String, Integer> parallelism = new HashMap<>();

    private PromSeries() {
    }

    static PromSeries parse(JsonNode result, PrometheusMetricsSource.Labels labels, String origin) {
        PromSeries series = new PromSeries();
        for (JsonNode entry : result) {
            JsonNode metric = entry.path("metric");
            String name = metric.path("__name__").asText();
            String op = metric.path("operator").asText();
            double value = value(entry.path("value"), origin, name);
            if (op.isEmpty()) {
                continue;
            }
            if (name.equals(PARALLELISM)) {
                series.parallelism.put(op, (int) Math.round(value));
            } else if (metric.hasNonNull(labels.instance())) {
                int instance = index(metric.path(labels.instance()).asText(), origin, labels);
                series.values.computeIfAbsent(op, k -> new TreeMap<>())
                        .computeIfAbsent(instance, k -> new HashMap<>()).put(name, value);
            }
        }
        return series;
    }

    private static double value(JsonNode pair, String origin, String name) {
        String text = pair.path(1).asText("");
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new CollectorException(origin + " returned value '" + text + "' for " + name
                            + "; expected [time, \"number\"]");
                }
            }
        };
    }

    private static int index(String text, String origin, PrometheusMetricsSource.Labels labels) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new CollectorException(origin + " has label " + labels.instance() + "=\"" + text
                    + "\", not an operator instance index; scrape with honor_labels: true or use Labels.EXPORTED");
        }
    }

    boolean isEmpty() {
        return values.isEmpty() && parallelism.isEmpty();
    }

    Map<String, Integer> parallelism() {
        return parallelism;
    }

    List<InstanceCounters> countersOf(String operatorId) {
        List<InstanceCounters> result = new ArrayList<>();
        values.getOrDefault(operatorId, Map.of()).forEach((index, v) -> {
            if (v.keySet().containsAll(COUNTERS)) {
                result.add(new InstanceCounters(operatorId, index, v.get(COUNTERS.get(0)), v.get(COUNTERS.get(1)),
                        v.get(COUNTERS.get(2)), v.get(COUNTERS.get(3)), v.get(COUNTERS.get(4)),
                        v.get(COUNTERS.get(5)), v.getOrDefault(BACKLOG, 0.0), false));
            }
        });
        return result;
    }
}
