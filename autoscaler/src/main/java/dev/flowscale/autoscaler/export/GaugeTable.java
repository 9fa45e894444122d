package dev.flowscale.autoscaler.export;

import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Gauges whose values are set, not sampled: each (name, tags) is registered once and then updated.
 */
final class GaugeTable {
    private record Key(String name, Tags tags) {}

    private record Entry(AtomicReference<Double> value, Meter.Id id) {}

    private final MeterRegistry registry;
    private final Map<Key, Entry> values = new ConcurrentHashMap<>();

    GaugeTable(MeterRegistry registry) {
        this.registry = registry;
    }

    void set(MetricName metric, Tags tags, double value) {
        values.computeIfAbsent(
                        new Key(metric.micrometer(), tags),
                        key -> register(key, metric.description(), metric.unit()))
                .value()
                .set(value);
    }

    /** Removes every gauge labelled {@code job} from the registry, and its value. */
    void forget(String job) {
        values.entrySet()
                .removeIf(
                        e -> {
                            boolean ofJob =
                                    e.getKey().tags().stream()
                                            .anyMatch(
                                                    t ->
                                                            t.getKey().equals("job")
                                                                    && t.getValue().equals(job));
                            if (ofJob) {
                                registry.remove(e.getValue().id());
                            }
                            return ofJob;
                        });
    }

    private Entry register(Key key, String description, String unit) {
        AtomicReference<Double> holder = new AtomicReference<>(Double.NaN);
        Gauge gauge =
                Gauge.builder(key.name(), holder, h -> h.get())
                        .description(description)
                        .baseUnit(unit)
                        .tags(key.tags())
                        .register(registry);
        return new Entry(holder, gauge.getId());
    }
}
