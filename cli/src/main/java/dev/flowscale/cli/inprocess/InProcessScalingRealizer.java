package dev.flowscale.cli.inprocess;

import dev.flowscale.autoscaler.realizer.RealizeException;
import dev.flowscale.autoscaler.realizer.RescaleListener;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.autoscaler.realizer.SingleFlightRealizer;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.RescaleView;
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
 * has opened. The savepoint is kept. An emulated restart keeps the job down longer at each rescale,
 * as a pod restart would on a cluster.
 */
public final class InProcessScalingRealizer extends SingleFlightRealizer {
    /**
     * Longest emulated restart: a cluster's rescale costs 30-60 s; minutes more only stall a local
     * run.
     */
    public static final Duration MAX_EMULATED_RESTART = Duration.ofMinutes(10);

    private final RunningJob job;
    private final Duration emulatedRestart;

    /**
     * @param job the job to rescale; it must have snapshot storage ({@code
     *     JobConfig.withCheckpointing})
     * @param timeout longest wait for the savepoint, for the drain, and for the restored job to run
     * @param emulatedRestart how much longer the job stays down at each rescale, between its
     *     savepoint and its restore, to emulate on one machine the pod restart a rescale costs on a
     *     cluster; the reported downtime includes it. Zero to {@link #MAX_EMULATED_RESTART}.
     * @param clock reads the start time of each rescale
     * @param listeners told about every rescale
     */
    public InProcessScalingRealizer(
            RunningJob job,
            Duration timeout,
            Duration emulatedRestart,
            Clock clock,
            List<RescaleListener> listeners) {
        super("flowscale-" + name(job) + "-rescaler", timeout, clock, listeners);
        this.job = job;
        this.emulatedRestart = checked(job, emulatedRestart);
    }

    public InProcessScalingRealizer(
            RunningJob job, Duration timeout, Clock clock, List<RescaleListener> listeners) {
        this(job, timeout, Duration.ZERO, clock, listeners);
    }

    public InProcessScalingRealizer(
            RunningJob job, Duration timeout, RescaleListener... listeners) {
        this(job, timeout, Clock.systemUTC(), Arrays.asList(listeners));
    }

    private static Duration checked(RunningJob job, Duration d) {
        if (d == null || d.isNegative() || d.compareTo(MAX_EMULATED_RESTART) > 0) {
            throw new RealizeException(
                    "in-process realizer of job '"
                            + job.name()
                            + "': emulated restart is "
                            + d
                            + "; use 0s to "
                            + MAX_EMULATED_RESTART.toMinutes()
                            + "m");
        }
        return d;
    }

    private static String name(RunningJob job) {
        if (job == null) {
            throw new RealizeException("in-process realizer needs a running job, got null");
        }
        return job.name();
    }

    @Override
    protected Optional<RescaleReport> rescale(
            String jobName, Map<String, Integer> changes, Instant started) {
        Map<String, Integer> from =
                RescaleReport.restrict(job.graph().parallelism(), changes.keySet());
        if (!jobName.equals(job.name())) {
            return Optional.of(
                    RescaleReport.restart(jobName, started, from, changes, null, Duration.ZERO)
                            .failedBecause(
                                    "the decision "
                                            + "is for job '"
                                            + jobName
                                            + "' but this realizer rescales job '"
                                            + job.name()
                                            + "'; nothing was changed"));
        }
        Map<String, Integer> pending = pending(changes, job.graph().parallelism());
        return pending.isEmpty()
                ? Optional.empty()
                : Optional.of(
                        rescaleNow(
                                jobName,
                                RescaleReport.restrict(from, pending.keySet()),
                                pending,
                                started));
    }

    private RescaleReport rescaleNow(
            String jobName,
            Map<String, Integer> from,
            Map<String, Integer> changes,
            Instant started) {
        try {
            RescaleView result = job.rescale(changes, timeout, emulatedRestart);
            if (!job.awaitRunning(timeout)) {
                return RescaleReport.restart(
                                jobName,
                                started,
                                from,
                                changes,
                                result.savepointPath(),
                                since(started))
                        .failedBecause(
                                "the restored job did not run within "
                                        + timeout
                                        + "; it is "
                                        + job.status());
            }
            return RescaleReport.restart(
                    jobName, started, from, changes, result.savepointPath(), result.downtime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RescaleReport.restart(jobName, started, from, changes, null, since(started))
                    .failedBecause(
                            "interrupted; the job is "
                                    + job.status()
                                    + " at "
                                    + job.graph().parallelism());
        } catch (RuntimeException e) {
            return RescaleReport.restart(jobName, started, from, changes, null, since(started))
                    .failedBecause(
                            e.getMessage()
                                    + "; the job is "
                                    + job.status()
                                    + " at "
                                    + job.graph().parallelism());
        }
    }
}
