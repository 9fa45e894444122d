package dev.flowscale.operator;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.ParallelismText;
import dev.flowscale.operator.runner.JobEnd;
import dev.flowscale.operator.runner.RunnerResources;
import dev.flowscale.operator.runner.ScaleUpBackoff;
import dev.flowscale.operator.runner.StopAttempts;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The status a reconcile pass of a runner job observes: phase, observedGeneration (only once the
 * change ran), and the Ready, Degraded, Scaling and SavepointFailing conditions, as functions of
 * the spec and of what the executor recorded.
 */
final class ObservedStatus {
    private final Clock clock;

    ObservedStatus(Clock clock) {
        this.clock = clock;
    }

    /**
     * Derives the pass's phase, observedGeneration and conditions (Ready, Degraded, Scaling,
     * SavepointFailing) from what the executor left in status and whether the runner is ready.
     *
     * @param applied whether the runner's Deployment holds this spec
     */
    void observed(StreamJob job, StreamJobStatus status, boolean ready, boolean applied) {
        boolean pending = status.pending != null;
        boolean ended = JobEnd.ended(job, status);
        status.phase =
                ended
                        ? JobEnd.phase(status.endedAs)
                        : job.getSpec().suspend && !pending
                                ? JobPhase.Suspended
                                : pending
                                        ? JobPhase.Rescaling
                                        : ready ? JobPhase.Running : JobPhase.Deploying;
        status.parallelismSummary = ParallelismText.summary(status.parallelism);
        forgetOverridesOfChangedSpec(job, status);
        if ((applied || status.endedAs != null)
                && !pending
                && !StopAttempts.abandoned(status, generation(job))) {
            // The runner's Deployment holds the spec (a change of it ends only once the runner
            // runs it); not while a change is under way, was abandoned or has yet to start.
            status.observedGeneration = generation(job);
        }
        if (ended) {
            jobEnded(job, status);
        } else {
            Conditions.set(
                    status,
                    Conditions.READY,
                    ready && !pending,
                    readyReason(status.phase),
                    readyMessage(job, status.phase),
                    generation(job),
                    clock.instant());
            Conditions.specValid(status, generation(job), clock.instant());
        }
        StopAttempts.condition(status, generation(job), clock.instant());
        if (pending) {
            Conditions.set(
                    status,
                    Conditions.SCALING,
                    true,
                    status.pending.path,
                    "changing the runner ("
                            + status.pending.reason
                            + ") to "
                            + ParallelismText.summary(status.pending.to),
                    generation(job),
                    clock.instant());
        } else if (status.blockedScaleUp != null) {
            Conditions.set(
                    status,
                    Conditions.SCALING,
                    false,
                    ScaleUpBackoff.REASON,
                    ScaleUpBackoff.message(status.blockedScaleUp),
                    generation(job),
                    clock.instant());
        } else {
            Conditions.set(
                    status,
                    Conditions.SCALING,
                    false,
                    status.lastRescale == null
                            ? "Idle"
                            : status.lastRescale.succeeded ? "Rescaled" : "RescaleFailed",
                    status.lastRescale == null
                            ? "no rescale in progress"
                            : status.lastRescale.message,
                    generation(job),
                    clock.instant());
        }
    }

    /**
     * Not ready, and (failed or cancelled) degraded, for a job whose run ended ({@link JobEnd}).
     */
    private void jobEnded(StreamJob job, StreamJobStatus status) {
        String reason = JobEnd.reason(status.endedAs);
        String message = JobEnd.message(job, status.endedAs);
        Conditions.set(
                status, Conditions.READY, false, reason, message, generation(job), clock.instant());
        boolean finished = status.phase == JobPhase.Finished;
        Conditions.set(
                status,
                Conditions.DEGRADED,
                !finished,
                finished ? "SpecValid" : reason,
                finished ? "the spec can run" : message,
                generation(job),
                clock.instant());
    }

    /**
     * An operator whose spec.parallelism the user changed takes the new value, not the
     * autoscaler's.
     */
    private static void forgetOverridesOfChangedSpec(StreamJob job, StreamJobStatus status) {
        Map<String, Integer> spec = new TreeMap<>(job.getSpec().parallelism);
        if (!status.specParallelism.isEmpty()) {
            status.desiredParallelism
                    .keySet()
                    .removeIf(op -> !Objects.equals(status.specParallelism.get(op), spec.get(op)));
        }
        status.specParallelism = spec;
    }

    private static String readyReason(JobPhase phase) {
        return switch (phase) {
            case Running -> "RunnerReady";
            case Suspended -> "Suspended";
            case Rescaling -> "Rescaling";
            default -> "RunnerStarting";
        };
    }

    private static String readyMessage(StreamJob job, JobPhase phase) {
        return switch (phase) {
            case Running -> "runner " + RunnerResources.runnerName(job) + " is ready";
            case Suspended -> "spec.suspend is true: set it to false to run the job";
            case Rescaling -> "runner " + RunnerResources.runnerName(job) + " is being changed";
            default -> "waiting for runner " + RunnerResources.runnerName(job) + " to become ready";
        };
    }

    private static Long generation(StreamJob job) {
        return job.getMetadata().getGeneration();
    }
}
