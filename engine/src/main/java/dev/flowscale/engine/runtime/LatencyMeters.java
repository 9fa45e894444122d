package dev.flowscale.engine.runtime;

import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The latency meters of one operator instance: a latency histogram per source operator that reaches
 * it (when the job tracks latency), and its event-time lag (in jobs with event time).
 */
final class LatencyMeters {
    /**
     * The histogram's buckets: about 16 series per instance and source, enough for
     * histogram_quantile from a millisecond (the markers' resolution) to a minute.
     */
    static final Duration[] BUCKETS =
            List.of(1L, 2L, 5L, 10L, 20L, 50L, 100L, 200L, 500L, 1_000L, 2_000L, 5_000L, 10_000L)
                    .stream()
                    .map(Duration::ofMillis)
                    .toArray(Duration[]::new);

    private final MeterRegistry registry;
    private final List<Meter> meters;
    private final Clock clock;
    private final Map<String, Set<String>> sourcesReaching;

    LatencyMeters(JobGraph graph, MeterRegistry registry, List<Meter> meters, Clock clock) {
        this.registry = registry;
        this.meters = meters;
        this.clock = clock;
        this.sourcesReaching = sourcesReaching(graph);
    }

    /** Binds the instance's latency histograms and lag gauge, as the job's settings call for. */
    void bind(Task task, Tags tags, boolean trackLatency) {
        if (trackLatency && task instanceof OperatorTask) {
            Map<String, Timer> bySource = new HashMap<>();
            for (String source :
                    sourcesReaching.getOrDefault(task.context.operatorId(), Set.of())) {
                bySource.put(source, histogram(tags.and("source", source)));
            }
            task.latency = new LatencyStats(bySource, clock);
        }
        if (task.eventTime) {
            MetricName lag = MetricName.EVENT_TIME_LAG;
            meters.add(
                    Gauge.builder(lag.micrometer(), task, t -> lagSeconds(t.output.watermark()))
                            .baseUnit(lag.unit())
                            .description(lag.description())
                            .tags(tags)
                            .register(registry));
        }
    }

    private Timer histogram(Tags tags) {
        MetricName name = MetricName.MARKER_LATENCY;
        Timer timer =
                Timer.builder(name.micrometer())
                        .description(name.description())
                        .tags(tags)
                        .serviceLevelObjectives(BUCKETS)
                        .register(registry);
        meters.add(timer);
        return timer;
    }

    /**
     * Now minus the watermark; NaN before the first watermark and after the last ({@link
     * Long#MAX_VALUE}: the input ended), when there is no event-time progress to lag behind.
     */
    private double lagSeconds(long watermark) {
        if (watermark == Long.MIN_VALUE || watermark == Long.MAX_VALUE) {
            return Double.NaN;
        }
        return (clock.millis() - watermark) / 1000.0;
    }

    /** For every operator, the sources upstream of it (whose markers can reach it). */
    static Map<String, Set<String>> sourcesReaching(JobGraph graph) {
        Map<String, Set<String>> reaching = new HashMap<>();
        graph.operators().stream()
                .filter(n -> n.kind().isSource())
                .forEach(
                        source -> {
                            ArrayDeque<String> open = new ArrayDeque<>(List.of(source.id()));
                            while (!open.isEmpty()) {
                                for (Edge edge : graph.outputsOf(open.poll())) {
                                    if (reaching.computeIfAbsent(
                                                    edge.to(), k -> new LinkedHashSet<>())
                                            .add(source.id())) {
                                        open.add(edge.to());
                                    }
                                }
                            }
                        });
        return reaching;
    }
}
