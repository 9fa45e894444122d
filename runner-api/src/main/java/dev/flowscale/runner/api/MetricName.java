package dev.flowscale.runner.api;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every metric flowscale exports: its Micrometer name (dotted, as the code registers it), its base
 * unit, its kind and its Prometheus name (what Prometheus, the dashboard and the docs see). The
 * engine's meters, the collectors, the dashboard's tests and docs/metrics.md all take names from
 * here. Labels: {@code job} on all; {@code operator} and {@code instance} on per-instance meters;
 * {@code operator} on per-operator ones.
 */
public enum MetricName {
    RECORDS_IN(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.records.in",
            null,
            "Records the instance processed (sources: emitted)"),
    RECORDS_OUT(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.records.out",
            null,
            "Records the instance emitted"),
    USEFUL_TIME(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.useful.time",
            Unit.SECONDS,
            "DS2 useful time: processing, excluding waits"),
    WAIT_INPUT_TIME(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.wait.input.time",
            Unit.SECONDS,
            "Time blocked waiting for input"),
    BACKPRESSURE_TIME(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.backpressure.time",
            Unit.SECONDS,
            "Time blocked on a full output channel"),
    OBSERVED_TIME(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.observed.time",
            Unit.SECONDS,
            "DS2 observed time: how long the instance ran"),
    SOURCE_BACKLOG(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.source.backlog",
            Unit.RECORDS,
            "Records due by the source's schedule but not yet emitted"),
    SOURCE_BACKLOG_SIGNAL(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.source.backlog.signal",
            null,
            "1 while the source reports its backlog; 0 while it has no signal (backlog NaN)"),
    KAFKA_LAG(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.kafka.lag",
            Unit.RECORDS,
            "Kafka sources: records of the topic (label topic) in the instance's partitions not yet read; NaN while it has no lag signal"),
    TRUE_PROCESSING_RATE(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.true.processing.rate",
            Unit.RECORDS_PER_SECOND,
            "DS2 true processing rate: records in / useful time, over the rate window"),
    TRUE_OUTPUT_RATE(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.true.output.rate",
            Unit.RECORDS_PER_SECOND,
            "DS2 true output rate: records out / useful time, over the rate window"),
    OBSERVED_PROCESSING_RATE(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.observed.processing.rate",
            Unit.RECORDS_PER_SECOND,
            "Records in / observed time, over the rate window"),
    OBSERVED_OUTPUT_RATE(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.observed.output.rate",
            Unit.RECORDS_PER_SECOND,
            "Records out / observed time, over the rate window"),
    UTILIZATION(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.utilization",
            null,
            "Useful time / observed time over the rate window"),
    BACKPRESSURE_RATIO(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.backpressure.ratio",
            null,
            "Share of the rate window blocked on output"),
    OPERATOR_PARALLELISM(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.operator.parallelism",
            null,
            "Number of parallel instances of the operator"),
    CHECKPOINTS_COMPLETED(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.checkpoints.completed",
            null,
            "Checkpoints and savepoints completed"),
    CHECKPOINTS_FAILED(
            Exporter.RUNNER,
            Kind.COUNTER,
            "flowscale.checkpoints.failed",
            null,
            "Checkpoints and savepoints that failed"),
    CHECKPOINTS_CONSECUTIVE_FAILURES(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.checkpoints.consecutive.failures",
            null,
            "Periodic checkpoints failed in a row"),
    CHECKPOINT_LAST_COMPLETED_AGE(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.checkpoint.last.completed.age",
            Unit.SECONDS,
            "Time since the last completed snapshot"),
    STATE_ROCKSDB_MEMORY(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.state.rocksdb.memory",
            Unit.BYTES,
            "Native memory of the instance's RocksDB: block cache including write buffers (RocksDB jobs only)"),
    STATE_ROCKSDB_MEMORY_LIMIT(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.state.rocksdb.memory.limit",
            Unit.BYTES,
            "The configured bound of that memory (RocksDB jobs only)"),
    STATE_ROCKSDB_WRITE_BUFFERS(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.state.rocksdb.write.buffers",
            Unit.BYTES,
            "Bytes in RocksDB write buffers (memtables) (RocksDB jobs only)"),
    STATE_ROCKSDB_KEYS(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.state.rocksdb.keys",
            null,
            "RocksDB's estimate of the instance's keyed entries (RocksDB jobs only)"),
    STATE_ROCKSDB_DISK(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.state.rocksdb.disk",
            Unit.BYTES,
            "Bytes of the instance's RocksDB files on local disk (RocksDB jobs only)"),
    MARKER_LATENCY(
            Exporter.RUNNER,
            Kind.TIMER,
            "flowscale.marker.latency",
            Unit.SECONDS,
            "Age of the latency markers from the source (label source) on reaching the instance (with latency tracking on)"),
    EVENT_TIME_LAG(
            Exporter.RUNNER,
            Kind.GAUGE,
            "flowscale.event.time.lag",
            Unit.SECONDS,
            "Wall-clock time now minus the instance's watermark (event-time jobs only)"),

    CONTROLLER_DECISIONS(
            Exporter.CONTROLLER,
            Kind.COUNTER,
            "flowscale.controller.decisions",
            null,
            "Scaling decisions by outcome and block reason"),
    CONTROLLER_DECISION_TIMESTAMP(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.decision.timestamp",
            Unit.SECONDS,
            "Time of a scaling decision; labels: what changed (change) and why (reasons)"),
    CONTROLLER_PARALLELISM(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.parallelism",
            null,
            "Parallelism the operator runs at"),
    CONTROLLER_RECOMMENDED_PARALLELISM(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.recommended.parallelism",
            null,
            "Parallelism DS2 and the sizing guards recommend"),
    CONTROLLER_NEW_PARALLELISM(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.new.parallelism",
            null,
            "Parallelism decided after scale-down delay and dead band"),
    CONTROLLER_TARGET_INPUT_RATE(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.target.input.rate",
            Unit.RECORDS_PER_SECOND,
            "Records per second the operator must process"),
    CONTROLLER_UTILIZATION(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.utilization",
            null,
            "Planned utilization: target rate / (new parallelism x capacity)"),
    CONTROLLER_TRUE_PROCESSING_RATE(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.true.processing.rate",
            Unit.RECORDS_PER_SECOND,
            "DS2 true processing rate, summed over instances"),
    CONTROLLER_OBSERVED_PROCESSING_RATE(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.observed.processing.rate",
            Unit.RECORDS_PER_SECOND,
            "Records processed per second of the window"),
    CONTROLLER_SOURCE_BACKLOG(
            Exporter.CONTROLLER,
            Kind.GAUGE,
            "flowscale.controller.source.backlog",
            Unit.RECORDS,
            "Records the source owes at the end of the window"),
    CONTROLLER_RESCALE_DOWNTIME(
            Exporter.CONTROLLER,
            Kind.TIMER,
            "flowscale.controller.rescale.downtime",
            Unit.SECONDS,
            "Time from the start of a rescale until the job runs again"),
    CONTROLLER_RESCALES(
            Exporter.CONTROLLER,
            Kind.COUNTER,
            "flowscale.controller.rescales",
            null,
            "Rescales by result: succeeded or failed (rolled back)"),
    CONTROLLER_RESCALE_PATH_DOWNTIME(
            Exporter.OPERATOR,
            Kind.TIMER,
            "flowscale.controller.rescale.path.downtime",
            Unit.SECONDS,
            "Downtime of each rescale by the path it took (in-place or pod-replacement)");

    /** Who serves the metric. */
    public enum Exporter {
        /** The job runner's {@code /metrics} (the engine's meters). */
        RUNNER,
        /**
         * The controller's endpoint: {@code ./flowscale}'s or the operator's (the autoscaler's
         * ControllerMetrics).
         */
        CONTROLLER,
        /** The Kubernetes operator's endpoint only. */
        OPERATOR
    }

    /** The meter type, which decides the Prometheus suffixes. */
    public enum Kind {
        COUNTER,
        GAUGE,
        TIMER
    }

    /** Base units as Micrometer spells them and Prometheus appends them. */
    public static final class Unit {
        public static final String SECONDS = "seconds";
        public static final String RECORDS = "records";
        public static final String RECORDS_PER_SECOND = "records.per.second";
        public static final String BYTES = "bytes";

        private Unit() {}
    }

    private final Exporter exporter;
    private final Kind kind;
    private final String micrometer;
    private final String unit;
    private final String description;

    MetricName(Exporter exporter, Kind kind, String micrometer, String unit, String description) {
        this.exporter = exporter;
        this.kind = kind;
        this.micrometer = micrometer;
        this.unit = unit;
        this.description = description;
    }

    public Exporter exporter() {
        return exporter;
    }

    public Kind kind() {
        return kind;
    }

    /** The name to register with Micrometer, e.g. {@code flowscale.useful.time}. */
    public String micrometer() {
        return micrometer;
    }

    /** Micrometer's base unit, or null when the metric counts things or is a ratio. */
    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    /**
     * The name Prometheus stores, e.g. {@code flowscale_useful_time_seconds_total}: dots become
     * underscores, the base unit is appended, counters end in {@code _total}. A timer's series add
     * {@code _bucket}, {@code _count}, {@code _sum} and {@code _max} ({@link #series()}).
     */
    public String prometheus() {
        String name =
                micrometer.replace('.', '_') + (unit == null ? "" : "_" + unit.replace('.', '_'));
        return kind == Kind.COUNTER ? name + "_total" : name;
    }

    /** Every series name Prometheus stores for this metric. */
    public List<String> series() {
        String name = prometheus();
        return kind == Kind.TIMER
                ? List.of(name + "_bucket", name + "_count", name + "_sum", name + "_max")
                : List.of(name);
    }

    /**
     * The metric whose Prometheus name ({@link #prometheus()}, a timer's base name too) is {@code
     * name}, if any.
     */
    public static Optional<MetricName> named(String name) {
        return Arrays.stream(values()).filter(m -> m.prometheus().equals(name)).findFirst();
    }

    /** The metric one of whose series is {@code seriesName}, if any. */
    public static Optional<MetricName> ofSeries(String seriesName) {
        return Arrays.stream(values()).filter(m -> m.series().contains(seriesName)).findFirst();
    }
}
