package dev.flowscale.flink;

import dev.flowscale.autoscaler.metrics.CollectorException;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Samples a running Flink job (1.18 up to 2.3) through its REST API: the job graph with its edges
 * (job vertices are the operators flowscale scales), and per subtask the cumulative DS2 counters
 * that {@link VertexMetrics} reads. A source's parallelism is bounded by its splits where Flink
 * shows them (per-split watermark metrics, Kafka partition offsets), and every vertex by its max
 * parallelism (key groups). The run id is the job id and its parallelism, so a rescale in place
 * starts a new run; a restart at the same parallelism shows as counters going backwards. With each
 * sample it also reads the task slots the job may use ({@link SlotLimits}), for a {@link
 * SlotBoundPolicy} to bound decisions by.
 *
 * <p>Flink refreshes the metrics it serves over REST every {@code metrics.fetcher.update-interval}
 * (10 s by default): use windows several times longer, or lower that setting.
 */
public final class FlinkRestMetricsSource implements MetricsSource {
    private final FlinkJobRef job;
    private final Clock clock;
    private final Map<String, VertexMetrics.SourceNames> sourceNames = new HashMap<>();
    private String namesRun = "";
    private final MonotoneTimes times = new MonotoneTimes();
    private final SlotLimits slots;
    private volatile Optional<SlotLimit> slotLimit = Optional.empty();
    private volatile Optional<String> checkpointNote = Optional.empty();

    /** A job on a cluster that cannot add TaskManagers: its slots are the cluster's. */
    public FlinkRestMetricsSource(FlinkJobRef job, Clock clock) {
        this(job, SlotLimits.cluster(job.rest()), clock);
    }

    /**
     * @param slots the task slots the job may use: the cluster's ({@link SlotLimits#cluster}) where
     *     it cannot add TaskManagers, else as configured or none
     */
    public FlinkRestMetricsSource(FlinkJobRef job, SlotLimits slots, Clock clock) {
        this.job = Objects.requireNonNull(job, "Flink job");
        this.slots = Objects.requireNonNull(slots, "Flink job's slot limits");
        this.clock = Objects.requireNonNull(clock, "Flink metrics source clock");
    }

    /** The task slots the job could use at the latest sample; empty before one, or unbounded. */
    public Optional<SlotLimit> slotLimit() {
        return slotLimit;
    }

    /**
     * Why a rescale in place would be costly, when the job's latest completed checkpoint was slow
     * ({@link CheckpointStats#slowNote}) at the latest sample; empty otherwise or before one.
     */
    public Optional<String> checkpointNote() {
        return checkpointNote;
    }

    @Override
    public synchronized MetricsSample sample() {
        try {
            FlinkJob current = job.read();
            if (!current.running()) {
                throw new CollectorException(
                        "Flink job '"
                                + current.name()
                                + "' ("
                                + current.id()
                                + ") is "
                                + current.state()
                                + ", not RUNNING; no sample until it runs");
            }
            slotLimit = slots.of(current);
            checkpointNote = readCheckpointNote();
            String runId = runId(current);
            if (!runId.equals(namesRun)) {
                sourceNames.clear();
                namesRun = runId;
            }
            return new MetricsSample(
                    topology(current),
                    clock.instant(),
                    runId,
                    VertexMetrics.creditSources(
                            times.apply(runId, counters(current)), sourceOperators(current)));
        } catch (FlinkConnectorException e) {
            throw new CollectorException(e.getMessage(), e);
        }
    }

    private Optional<String> readCheckpointNote() {
        try {
            return CheckpointStats.read(job).slowNote(clock.instant());
        } catch (FlinkConnectorException e) {
            return Optional.empty(); // a Flink without checkpoint statistics: nothing to say
        }
    }

    /** The job's topology now, for callers that need it before the first window. */
    public synchronized JobTopology topology() {
        FlinkJob current = job.read();
        return topology(current);
    }

    private JobTopology topology(FlinkJob current) {
        Map<String, Integer> limits = new HashMap<>();
        for (FlinkVertex v : current.vertices()) {
            if (current.isSource(v) && v.running()) {
                int splits = names(current, v).splits();
                if (splits > 0) {
                    limits.put(v.id(), splits);
                }
            }
        }
        return current.topology(limits);
    }

    private List<InstanceCounts> counters(FlinkJob current) {
        List<InstanceCounts> counters = new ArrayList<>();
        for (FlinkVertex v : current.vertices()) {
            if (!v.running()) {
                continue;
            }
            Optional<String> source = Optional.empty();
            if (current.isSource(v)) {
                source = names(current, v).operator();
                if (source.isEmpty()) {
                    throw new CollectorException(
                            "source vertex '"
                                    + v.operatorId()
                                    + "' of Flink job "
                                    + current.id()
                                    + " lists no source operator counter (Source__*.numRecordsOut)"
                                    + " yet; its subtasks are starting, the next sample will have it");
                }
            }
            counters.addAll(VertexMetrics.read(job.rest(), current.id(), v, source));
        }
        return counters;
    }

    private static Set<String> sourceOperators(FlinkJob current) {
        Set<String> ids = new HashSet<>();
        current.vertices().stream().filter(current::isSource).forEach(v -> ids.add(v.operatorId()));
        return ids;
    }

    private VertexMetrics.SourceNames names(FlinkJob current, FlinkVertex v) {
        VertexMetrics.SourceNames names =
                sourceNames.computeIfAbsent(
                        v.id(), id -> VertexMetrics.sourceNames(job.rest(), current.id(), v));
        if (names.operator().isEmpty() || names.splits() == 0) {
            sourceNames.remove(v.id()); // not registered yet: list them again next time
        }
        return names;
    }

    private static String runId(FlinkJob job) {
        return "flink:" + job.id() + ":" + new TreeMap<>(job.parallelism());
    }

    @Override
    public String describe() {
        return job.toString();
    }
}
