package dev.flowscale.reconfig;

import dev.flowscale.engine.runtime.RescaleResult;
import dev.flowscale.engine.runtime.RunningJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rescales a {@link RunningJob} in this JVM with {@link RunningJob#rescale}: stop-with-savepoint,
 * then restore at the new parallelism (the job rolls itself back to the old parallelism from the
 * same savepoint when the restore fails). The stage completes once every task of the restored job
 * has opened. The savepoint is kept.
 */
public final class InProcessScalingRealizer extends SingleFlightRealizer {
    private final RunningJob job;

    /**
     * @param job       the job to rescale; it must have snapshot storage ({@code JobConfig.withCheckpointing})
     * @param timeout   longest wait for the savepoint, for the drain, and for the restored job to run
     * @param clock     reads the start time of each rescale
     * @param listeners told about every rescale
     */
    public InProcessScalingRealizer(RunningJob job, Duration timeout, Clock clock, List<RescaleListener> listeners) {
        super("flowscale-" + name(job) + "-rescaler", timeout, clock, listeners);
        this.job = job;
    }

    public InProcessScalingRealizer(RunningJob job, Duration timeout, RescaleListener... listeners) {
        this(job, timeout, Clock.systemUTC(), Arrays.asList(listeners));
    }

    private static String name(RunningJob job) {
        if (job == null) {
            throw new ReconfigException("in-process realizer needs a running job, got null");
        }
        return job.name();
    }

    @Override
    Optional<RescaleReport> rescale(String jobName, Map<String, Integer> changes, Instant started) {
        Map<String, Integer> from = RescaleReport.restrict(job.graph().parallelism(), changes.keySet());
        if (!jobName.equals(job.name())) {
            return Optional.of(RescaleReport.failed(jobName, started, from, changes, null, Duration.ZERO, "the decision "
                    + "is for job '" + jobName + "' but this realizer rescales job '" + job.name() + "'; nothing was changed"));
        }
        Map<String, Integer> pending = pending(changes, job.graph().parallelism());
        return pending.isEmpty() ? Optional.empty()
                : Optional.of(rescaleNow(jobName, RescaleReport.restrict(from, pending.keySet()), pending, started));
    }

    private RescaleReport rescaleNow(String jobName, Map<String, Integer> from, Map<String, Integer> changes,
                                     Instant started) {
        try {
            RescaleResult result = job.rescale(changes, timeout);
            if (!job.awaitRunning(timeout)) {
                return RescaleReport.failed(jobName, started, from, changes, result.savepoint(), since(started),
                        "the restored job did not run within " + timeout + "; it is " + job.status());
            }
            return RescaleReport.succeeded(jobName, started, from, changes, result.savepoint(), result.downtime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RescaleReport.failed(jobName, started, from, changes, null, since(started),
                    "interrupted; the job is " + job.status() + " at " + job.graph().parallelism());
        } catch (RuntimeException e) {
            return RescaleReport.failed(jobName, started, from, changes, null, since(started), e.getMessage()
                    + "; the job is " + job.status() + " at " + job.graph().parallelism());
        }
    }
}
