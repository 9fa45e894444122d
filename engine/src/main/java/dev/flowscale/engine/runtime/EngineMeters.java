package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.engine.metrics.InstanceRates;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.engine.state.RocksDbStoreFigures;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.runner.api.Rate;
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
 * Exposes a running job's DS2 counters as Micrometer meters named by {@link MetricName} with {@code
 * job}, {@code operator} and {@code instance} tags: cumulative counters read straight from the
 * instances, and rate gauges over a sliding window sampled in the background.
 */
final class EngineMeters implements AutoCloseable {
    private final JobExecution job;
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final ScheduledExecutorService sampler;
    private volatile JobMetricsSnapshot previous;
    private volatile Map<String, OperatorRates> rates = Map.of();
    private final LatencyMeters latency;
    private final boolean trackLatency;

    private EngineMeters(JobExecution job, MeterRegistry registry, JobConfig config) {
        this.job = job;
        this.registry = registry;
        this.latency = new LatencyMeters(job.graph(), registry, meters, config.clock());
        this.trackLatency = config.latencyTracking();
        Duration window = config.rateWindow();
        this.sampler =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t =
                                    new Thread(r, "flowscale-" + job.graph().jobName() + "-rates");
                            t.setDaemon(true);
                            return t;
                        });
        sampler.scheduleAtFixedRate(this::sample, 0, window.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Binds the meters of {@code job}'s instances to the config's registry (not null). */
    static AutoCloseable bind(JobExecution job, JobConfig config) {
        MeterRegistry registry = config.meterRegistry();
        EngineMeters bound = new EngineMeters(job, registry, config);
        for (Task task : job.tasks()) {
            bound.bindInstance(task);
        }
        job.graph()
                .parallelism()
                .forEach(
                        (op, p) ->
                                bound.meters.add(
                                        Gauge.builder(
                                                        MetricName.OPERATOR_PARALLELISM
                                                                .micrometer(),
                                                        () -> p)
                                                .tags(
                                                        Tags.of(
                                                                "job",
                                                                job.graph().jobName(),
                                                                "operator",
                                                                op))
                                                .description(
                                                        MetricName.OPERATOR_PARALLELISM
                                                                .description())
                                                .register(registry)));
        return bound;
    }

    private void sample() {
        JobMetricsSnapshot now = job.metrics();
        rates = now.ratesSince(previous);
        previous = now;
    }

    private void bindInstance(Task task) {
        InstanceCounterRecorder m = task.metrics;
        Tags tags =
                Tags.of(
                        "job",
                        job.graph().jobName(),
                        "operator",
                        task.context.operatorId(),
                        "instance",
                        Integer.toString(task.context.instanceIndex()));
        counter(MetricName.RECORDS_IN, tags, m, s -> s.recordsIn());
        counter(MetricName.RECORDS_OUT, tags, m, s -> s.recordsOut());
        counter(MetricName.USEFUL_TIME, tags, m, s -> s.usefulNanos() / 1e9);
        counter(MetricName.WAIT_INPUT_TIME, tags, m, s -> s.waitInputNanos() / 1e9);
        counter(MetricName.BACKPRESSURE_TIME, tags, m, s -> s.backpressureNanos() / 1e9);
        counter(MetricName.OBSERVED_TIME, tags, m, s -> s.observedNanos() / 1e9);
        if (task instanceof SourceTask) {
            meters.add(
                    Gauge.builder(
                                    MetricName.SOURCE_BACKLOG.micrometer(),
                                    m,
                                    EngineMeters::backlogOrNaN)
                            .baseUnit(MetricName.SOURCE_BACKLOG.unit())
                            .description(MetricName.SOURCE_BACKLOG.description())
                            .tags(tags)
                            .register(registry));
            meters.add(
                    Gauge.builder(
                                    MetricName.SOURCE_BACKLOG_SIGNAL.micrometer(),
                                    m,
                                    x -> Double.isNaN(backlogOrNaN(x)) ? 0 : 1)
                            .description(MetricName.SOURCE_BACKLOG_SIGNAL.description())
                            .tags(tags)
                            .register(registry));
        }
        if (task.state.keyed() != null && task.state.keyed().store() != null) {
            bindRocksDb(task.state.keyed().store().figures(), tags);
        }
        String op = task.context.operatorId();
        int i = task.context.instanceIndex();
        rate(MetricName.TRUE_PROCESSING_RATE, tags, op, i, InstanceRates::trueProcessingRate);
        rate(MetricName.TRUE_OUTPUT_RATE, tags, op, i, InstanceRates::trueOutputRate);
        rate(
                MetricName.OBSERVED_PROCESSING_RATE,
                tags,
                op,
                i,
                InstanceRates::observedProcessingRate);
        rate(MetricName.OBSERVED_OUTPUT_RATE, tags, op, i, InstanceRates::observedOutputRate);
        rate(MetricName.UTILIZATION, tags, op, i, InstanceRates::utilization);
        rate(MetricName.BACKPRESSURE_RATIO, tags, op, i, InstanceRates::backpressureRatio);
        latency.bind(task, tags, trackLatency);
    }

    /**
     * Native memory and size of an instance's RocksDB: memory in the block cache including write
     * buffers, the configured bound, write buffers, estimated keys and local disk.
     */
    private void bindRocksDb(RocksDbStoreFigures store, Tags tags) {
        gauge(MetricName.STATE_ROCKSDB_MEMORY, tags, store, RocksDbStoreFigures::memoryBytes);
        gauge(
                MetricName.STATE_ROCKSDB_MEMORY_LIMIT,
                tags,
                store,
                RocksDbStoreFigures::memoryLimitBytes);
        gauge(
                MetricName.STATE_ROCKSDB_WRITE_BUFFERS,
                tags,
                store,
                RocksDbStoreFigures::writeBufferBytes);
        gauge(MetricName.STATE_ROCKSDB_KEYS, tags, store, RocksDbStoreFigures::estimatedKeys);
        gauge(MetricName.STATE_ROCKSDB_DISK, tags, store, RocksDbStoreFigures::diskBytes);
    }

    private void gauge(
            MetricName name,
            Tags tags,
            RocksDbStoreFigures store,
            ToDoubleFunction<RocksDbStoreFigures> read) {
        meters.add(
                Gauge.builder(name.micrometer(), store, read)
                        .baseUnit(name.unit())
                        .description(name.description())
                        .tags(tags)
                        .register(registry));
    }

    private void counter(
            MetricName name,
            Tags tags,
            InstanceCounterRecorder m,
            ToDoubleFunction<InstanceCounts> read) {
        meters.add(
                FunctionCounter.builder(
                                name.micrometer(),
                                m,
                                x -> read.applyAsDouble(x.snapshot(System.nanoTime())))
                        .baseUnit(name.unit())
                        .description(name.description())
                        .tags(tags)
                        .register(registry));
    }

    /**
     * A gauge over the rate window; NaN while the instance has no rate in it (see {@link Rate}).
     */
    private void rate(
            MetricName name,
            Tags tags,
            String op,
            int instance,
            ToDoubleFunction<InstanceRates> read) {
        meters.add(
                Gauge.builder(name.micrometer(), () -> instanceRate(op, instance, read))
                        .baseUnit(name.unit())
                        .description(name.description())
                        .tags(tags)
                        .register(registry));
    }

    private double instanceRate(String op, int instance, ToDoubleFunction<InstanceRates> read) {
        OperatorRates r = rates.get(op);
        if (r == null) {
            return Double.NaN;
        }
        return r.instances().stream()
                .filter(x -> x.instance() == instance)
                .findFirst()
                .map(read::applyAsDouble)
                .orElse(Double.NaN);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        meters.forEach(registry::remove);
    }

    /** NaN, not 0, while the source has no backlog signal: Prometheus shows the gap as a gap. */
    private static double backlogOrNaN(InstanceCounterRecorder recorder) {
        InstanceCounts s = recorder.snapshot(System.nanoTime());
        return s.backlog() == null ? Double.NaN : s.backlog();
    }
}
