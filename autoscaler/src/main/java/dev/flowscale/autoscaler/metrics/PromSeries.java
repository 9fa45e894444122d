package dev.flowscale.autoscaler.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The flowscale series of one Prometheus instant-query result, grouped per operator instance. An
 * instance is reported only when all six of its counters are present.
 */
final class PromSeries {
    /** The counters an instance must report to be read. */
    static final List<MetricName> COUNTERS =
            List.of(
                    MetricName.RECORDS_IN,
                    MetricName.RECORDS_OUT,
                    MetricName.USEFUL_TIME,
                    MetricName.WAIT_INPUT_TIME,
                    MetricName.BACKPRESSURE_TIME,
                    MetricName.OBSERVED_TIME);

    /** Every metric a sample reads. */
    static final List<MetricName> READ =
            List.of(
                    MetricName.RECORDS_IN,
                    MetricName.RECORDS_OUT,
                    MetricName.USEFUL_TIME,
                    MetricName.WAIT_INPUT_TIME,
                    MetricName.BACKPRESSURE_TIME,
                    MetricName.OBSERVED_TIME,
                    MetricName.SOURCE_BACKLOG,
                    MetricName.OPERATOR_PARALLELISM);

    /** Values per operator, then instance index, then metric. */
    private final Map<String, Map<Integer, Map<MetricName, Double>>> values = new TreeMap<>();

    private final Map<String, Integer> parallelism = new HashMap<>();

    private PromSeries() {}

    static PromSeries parse(JsonNode result, PrometheusMetricsSource.Labels labels, String origin) {
        PromSeries series = new PromSeries();
        for (JsonNode entry : result) {
            JsonNode metric = entry.path("metric");
            String name = metric.path("__name__").asText();
            String op = metric.path("operator").asText();
            double value = value(entry.path("value"), origin, name);
            Optional<MetricName> known = MetricName.ofSeries(name).filter(READ::contains);
            if (op.isEmpty() || known.isEmpty()) {
                continue;
            }
            if (known.get() == MetricName.OPERATOR_PARALLELISM) {
                series.parallelism.put(op, (int) Math.round(value));
            } else if (metric.hasNonNull(labels.instance())) {
                int instance = index(metric.path(labels.instance()).asText(), origin, labels);
                series.values
                        .computeIfAbsent(op, k -> new TreeMap<>())
                        .computeIfAbsent(instance, k -> new EnumMap<>(MetricName.class))
                        .put(known.get(), value);
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
                    throw new CollectorException(
                            origin
                                    + " returned value '"
                                    + text
                                    + "' for "
                                    + name
                                    + "; expected [time, \"number\"]");
                }
            }
        };
    }

    private static int index(String text, String origin, PrometheusMetricsSource.Labels labels) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new CollectorException(
                    origin
                            + " has label "
                            + labels.instance()
                            + "=\""
                            + text
                            + "\", not an operator instance index; scrape with honor_labels: true or use Labels.EXPORTED");
        }
    }

    boolean isEmpty() {
        return values.isEmpty() && parallelism.isEmpty();
    }

    Map<String, Integer> parallelism() {
        return parallelism;
    }

    List<InstanceCounts> countersOf(String operatorId) {
        List<InstanceCounts> result = new ArrayList<>();
        values.getOrDefault(operatorId, Map.of())
                .forEach(
                        (index, v) -> {
                            if (v.keySet().containsAll(COUNTERS)) {
                                result.add(counters(operatorId, index, v));
                            }
                        });
        return result;
    }

    /**
     * One instance's counters as the runner serves them. The runner's backlog gauge is NaN while
     * the source has no lag signal: the record's null ({@link Counters#backlog}).
     */
    private static InstanceCounts counters(
            String operatorId, int index, Map<MetricName, Double> v) {
        return new InstanceCounts(
                operatorId,
                index,
                0,
                Counters.nanos(v.get(MetricName.OBSERVED_TIME)),
                Math.round(v.get(MetricName.RECORDS_IN)),
                Math.round(v.get(MetricName.RECORDS_OUT)),
                Counters.nanos(v.get(MetricName.USEFUL_TIME)),
                Counters.nanos(v.get(MetricName.WAIT_INPUT_TIME)),
                Counters.nanos(v.get(MetricName.BACKPRESSURE_TIME)),
                Counters.backlog(v.getOrDefault(MetricName.SOURCE_BACKLOG, 0.0)),
                false,
                0,
                new long[0],
                null,
                null);
    }
}
