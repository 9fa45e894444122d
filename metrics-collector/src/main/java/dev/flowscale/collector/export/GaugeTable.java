package dev.flowscale.collector.export;

import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Gauges whose values are set, not sampled: each (name, tags) is registered once and then updated.
 */
final class GaugeTable {
    private record Key(String name, Tags tags) {}

    private final MeterRegistry registry;
    private final Map<Key, AtomicReference<Double>> values = new ConcurrentHashMap<>();

    GaugeTable(MeterRegistry registry) {
        this.registry = registry;
    }

    void set(MetricName metric, Tags tags, double value) {
        values.computeIfAbsent(
                        new Key(metric.micrometer(), tags),
                        key -> register(key, metric.description(), metric.unit()))
                .set(value);
    }

    /** Drops the values of every gauge labelled {@code job} (after the registry removed them). */
    void forget(String job) {
        values.keySet()
                .removeIf(
                        key ->
                                job.equals(
                                        key.tags().stream()
                                                .filter(t -> t.getKey().equals("job"))
                                                .map(Tag::getValue)
                                                .findFirst()
                                                .orElse(null)));
    }

    private AtomicReference<Double> register(Key key, String description, String unit) {
        AtomicReference<Double> holder = new AtomicReference<>(Double.NaN);
        Gauge.builder(key.name(), holder, h -> h.get())
                .description(description)
                .baseUnit(unit)
                .tags(key.tags())
                .register(registry);
        return holder;
    }
}
