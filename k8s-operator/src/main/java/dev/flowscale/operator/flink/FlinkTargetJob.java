package dev.flowscale.operator.flink;

import dev.flowscale.autoscaler.metrics.CollectorException;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.FlinkRestMetricsSource;
import dev.flowscale.flink.SlotLimit;
import dev.flowscale.flink.SlotLimits;
import dev.flowscale.operator.api.FlinkTarget;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The Flink job a StreamJob targets: the run {@code status.flinkJob} names (the executor's rescale
 * through a savepoint starts the job again under a new id), else the one found by id or name
 * through its cluster's REST API when first needed, and found again after any failure: the Flink
 * Kubernetes operator's upgrades (savepoint or last-state) start the job again under a new job id,
 * and a loop must not fail to start only because the JobManager is not up yet.
 */
final class FlinkTargetJob {
    private final FlinkRestClient rest;
    private final String idOrName;
    private final Supplier<Optional<String>> recorded;
    private final SlotLimits slots;
    private FlinkJobRef ref;
    private FlinkRestMetricsSource source;

    /**
     * @param recorded the job id status names for this target (the run a rescale through a
     *     savepoint started), which wins over {@code idOrName}
     * @param slots the task slots the job may use, read with each sample
     */
    FlinkTargetJob(
            FlinkRestClient rest,
            String idOrName,
            Supplier<Optional<String>> recorded,
            SlotLimits slots) {
        this.rest = rest;
        this.idOrName = idOrName;
        this.recorded = recorded;
        this.slots = slots;
    }

    /** The task slots the job could use at the latest sample; empty when unbounded or unknown. */
    synchronized Optional<SlotLimit> slotLimit() {
        return source == null ? Optional.empty() : source.slotLimit();
    }

    /** Why a rescale in place would be costly, from the latest sample's checkpoints. */
    synchronized Optional<String> checkpointNote() {
        return source == null ? Optional.empty() : source.checkpointNote();
    }

    /** The job status names, else the one {@code idOrName} finds; a new recorded run wins. */
    synchronized FlinkJobRef ref() {
        Optional<String> run = recorded.get();
        if (ref == null || run.isPresent() && !run.get().equals(ref.jobId())) {
            ref = FlinkJobRef.find(rest, run.orElse(idOrName));
            source = null;
        }
        return ref;
    }

    /** The job now; a failure forgets the job, so the next call finds it again. */
    FlinkJob read() {
        try {
            return ref().read();
        } catch (RuntimeException e) {
            forget();
            throw e;
        }
    }

    private synchronized void forget() {
        ref = null;
        source = null;
    }

    /** Samples the job with {@link FlinkRestMetricsSource}, finding it again after a failure. */
    MetricsSource metrics(Clock clock) {
        return new MetricsSource() {
            @Override
            public MetricsSample sample() {
                try {
                    return source(clock).sample();
                } catch (FlinkConnectorException | CollectorException e) {
                    forget();
                    throw e instanceof CollectorException c
                            ? c
                            : new CollectorException(e.getMessage(), e);
                }
            }

            @Override
            public String describe() {
                return "Flink job "
                        + (idOrName == null ? "(the only running one)" : idOrName)
                        + " at "
                        + rest.base();
            }
        };
    }

    private synchronized FlinkRestMetricsSource source(Clock clock) {
        FlinkJobRef job = ref(); // first: a new recorded run resets the source
        if (source == null) {
            source = new FlinkRestMetricsSource(job, slots, clock);
        }
        return source;
    }

    /** What {@code status.flinkJob} was found for: the target's REST URL and job. */
    static String targetKey(FlinkTarget target) {
        return target.restUrl.trim() + " " + (target.job == null ? "" : target.job);
    }
}
