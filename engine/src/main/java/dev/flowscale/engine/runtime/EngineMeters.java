package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceMetrics;
import dev.flowscale.engine.metrics.InstanceRates;
import dev.flowscale.engine.metrics.InstanceSnapshot;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Exposes a running job's DS2 counters as Micrometer meters named {@code flowscale_*} with
 * {@code job}, {@code operator} and {@code instance} tags: cumulative counters read straight
 * from the instances, and rate gauges over a sliding window sampled in the background.
 */
final class EngineMeters implements AutoCloseable {
    private final JobExecution job;
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final ScheduledExecutorService sampler;
    private volatile JobMetricsSnapshot previous;
    private volatile Map<String, OperatorRates> rates = Map.of();

    private EngineMeters(JobExecution job, MeterRegistry registry, Duration window) {
        this.job = job;
        this.registry = registry;
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "flowscale-" + job.graph().jobName() + "-rates");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(this::sample, 0, window.toMillis(), TimeUnit.MILLISECONDS);
    }

    static AutoCloseable bind(JobExecution job, MeterRegistry registry, Duration window) {
        EngineMeters bound = new EngineMeters(job, registry, window);
        for (Task task : job.tasks()) {
            bound.bindInstance(task);
        }
        job.graph().parallelism().forEach((op, p) -> bound.meters.add(Gauge.builder("flowscale.operator.parallelism",
                () -> p).tags(Tags.of("job", job.graph().jobName(), "operator", op))
                .description("Number of parallel instances of the operator").register(registry)));
        return bound;
    }

    private void sample() {
        JobMetricsSnapshot now = job.metrics();
        rates = now.ratesSince(previous);
        previous = now;
    }

    private void bindInstance(Task task) {
        InstanceMetrics m = task.metrics;
        Tags tags = Tags.of("job", job.graph().jobName(), "operator", task.context.operatorId(),
                "instance", Integer.toString(task.context.instanceIndex()));
        counter("flowscale.records.in", null, "Records the instance processed (sources: emitted)", tags, m,
                s -> s.recordsIn());
        counter("flowscale.records.out", null, "Records the instance emitted", tags, m, s -> s.recordsOut());
        counter("flowscale.useful.time", "seconds", "DS2 useful time: processing, excluding waits", tags, m,
                s -> s.usefulNanos() / 1e9);
        counter("flowscale.wait.input.time", "seconds", "Time blocked waiting for input", tags, m,
                s -> s.waitInputNanos() / 1e9);
        counter("flowscale.backpressure.time", "seconds", "Time blocked on a full output channel", tags, m,
                s -> s.backpressureNanos() / 1e9);
        counter("flowscale.observed.time", "seconds", "DS2 observed time: how long the instance ran", tags, m,
                s -> s.observedNanos() / 1e9);
        if (task instanceof SourceTask) {
            gauge("flowscale.source.backlog", "records", "Records due by the source's schedule but not yet emitted",
                    tags, m, s -> s.backlog());
        }
        String op = task.context.operatorId();
        int i = task.context.instanceIndex();
        rate("flowscale.true.processing.rate", "DS2 true processing rate: records in / useful time", tags, op, i,
                InstanceRates::trueProcessingRate);
        rate("flowscale.true.output.rate", "DS2 true output rate: records out / useful time", tags, op, i,
                InstanceRates::trueOutputRate);
        rate("flowscale.observed.processing.rate", "Records in / observed time", tags, op, i,
                InstanceRates::observedProcessingRate);
        rate("flowscale.observed.output.rate", "Records out / observed time", tags, op, i,
                InstanceRates::observedOutputRate);
        meters.add(Gauge.builder("flowscale.utilization", () -> instanceRate(op, i, InstanceRates::utilization))
                .tags(tags).description("Useful time / observed time over the rate window").register(registry));
        meters.add(Gauge.builder("flowscale.backpressure.ratio", () -> instanceRate(op, i,
                InstanceRates::backpressureRatio)).tags(tags)
                .description("Share of the rate window blocked on output").register(registry));
    }

    private void counter(String name, String unit, String description, Tags tags, InstanceMetrics m,
                         ToDoubleFunction<InstanceSnapshot> read) {
        meters.add(FunctionCounter.builder(name, m, x -> read.applyAsDouble(x.snapshot(System.nanoTime())))
                .baseUnit(unit).description(description).tags(tags).register(registry));
    }

    private void gauge(String name, String unit, String description, Tags tags, InstanceMetrics m,
                       ToDoubleFunction<InstanceSnapshot> read) {
        meters.add(Gauge.builder(name, m, x -> read.applyAsDouble(x.snapshot(System.nanoTime())))
                .baseUnit(unit).description(description).tags(tags).register(registry));
    }

    private void rate(String name, String description, Tags tags, String op, int instance,
                      ToDoubleFunction<InstanceRates> read) {
        meters.add(Gauge.builder(name, () -> instanceRate(op, instance, read)).baseUnit("records.per.second")
                .description(description + ", over the rate window").tags(tags).register(registry));
    }

    private double instanceRate(String op, int instance, ToDoubleFunction<InstanceRates> read) {
        OperatorRates r = rates.get(op);
        if (r == null) {
            return Double.NaN;
        }
        return r.instances().stream().filter(x -> x.instance() == instance).findFirst()
                .map(read::applyAsDouble).orElse(Double.NaN);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        meters.forEach(registry::remove);
    }
}
