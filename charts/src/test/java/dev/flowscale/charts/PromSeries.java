package dev.flowscale.charts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One series of a range query: its labels and its values (NaN and infinities included, as
 * Prometheus sent them).
 */
record PromSeries(Map<String, String> labels, List<Double> values) {

    static PromSeries of(JsonNode result) {
        Map<String, String> labels = new LinkedHashMap<>();
        result.path("metric")
                .fields()
                .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        List<Double> values = new ArrayList<>();
        result.path("values")
                .forEach(point -> values.add(Double.parseDouble(point.get(1).asText())));
        return new PromSeries(labels, values);
    }

    /** Values a panel can draw: not NaN, not infinite. */
    List<Double> finiteValues() {
        return values.stream().filter(Double::isFinite).toList();
    }
}
