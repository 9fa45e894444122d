package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.runner.RunnerControl.RunnerState;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A runner whose job ended by itself and will not run again in that process: FINISHED (its input
 * ended), FAILED (its restart strategy gave up) or CANCELLED. Unlike a STOPPED runner (stopped with
 * a savepoint whose reply was lost), it is not restarted: restoring a finished job from one of its
 * checkpoints would replay the input after that checkpoint into its sinks a second time, and
 * restarting a failed one would hide why it failed. The end is recorded in status for the spec's
 * generation; a newer spec runs the job again. The new runner, as every runner start, resumes from
 * the newest complete snapshot in the job's storage: with the same storage that is a checkpoint of
 * the ended run (its input after that checkpoint is read again), with a new spec.savepoints.path
 * the job runs from its start.
 */
public final class JobEnd {
    /**
     * The runner's job statuses (runner API, {@code GET /api/v1/job}) after which it will not run
     * again.
     */
    static final Set<String> ENDED = Set.of("FINISHED", "FAILED", "CANCELLED");

    /** Statuses of a runner that runs or is about to run again by itself: wait for it. */
    static final Set<String> TRANSIENT = Set.of("RUNNING", "RESTARTING", "RESCALING");

    private JobEnd() {}

    /** Whether the job's run for its current spec ended ({@link StreamJobStatus#endedAs}). */
    public static boolean ended(StreamJob job, StreamJobStatus status) {
        return status.endedAs != null
                && Objects.equals(status.endedGeneration, job.getMetadata().getGeneration());
    }

    /** Records that the runner's job ended as {@code runnerStatus}, with one Event saying so. */
    static void record(ReconcileStatus pass, String runnerStatus, JobEvents events) {
        StreamJob job = pass.job();
        pass.write(
                st -> {
                    st.endedAs = runnerStatus;
                    st.endedGeneration = job.getMetadata().getGeneration();
                });
        if (runnerStatus.equals("FINISHED")) {
            events.normal(job, reason(runnerStatus), message(job, runnerStatus));
        } else {
            events.warning(job, reason(runnerStatus), message(job, runnerStatus));
        }
    }

    /**
     * A runner answers that runs (or restarts) the job: an ended run recorded for an earlier spec
     * is over.
     */
    static void runsAgain(ReconcileStatus pass, Optional<RunnerState> state) {
        if (pass.status().endedAs != null
                && state.isPresent()
                && !ENDED.contains(state.get().status())) {
            pass.write(
                    st -> {
                        st.endedAs = null;
                        st.endedGeneration = null;
                    });
        }
    }

    public static JobPhase phase(String endedAs) {
        return endedAs.equals("FINISHED") ? JobPhase.Finished : JobPhase.Failed;
    }

    /** The Ready condition's and the Event's reason: JobFinished, JobFailed or JobCancelled. */
    public static String reason(String endedAs) {
        return switch (endedAs) {
            case "FINISHED" -> JobEvents.JOB_FINISHED;
            case "FAILED" -> JobEvents.JOB_FAILED;
            default -> JobEvents.JOB_CANCELLED;
        };
    }

    /** What happened and how to run the job again. */
    public static String message(StreamJob job, String endedAs) {
        String runner = "runner " + RunnerResources.runnerName(job);
        String again =
                "; to run it again, change the spec: with a new spec.savepoints.path it runs from its start,"
                        + " with the same storage it resumes from its newest checkpoint and reads the input after it again";
        return switch (endedAs) {
            case "FINISHED" -> runner + " finished the job: its input ended" + again;
            case "FAILED" ->
                    runner
                            + " reports the job FAILED: its restart strategy gave up; the runner's log says"
                            + " why (kubectl logs deployment/"
                            + RunnerResources.runnerName(job)
                            + ")"
                            + again;
            default -> runner + " reports the job CANCELLED (not by the operator)" + again;
        };
    }
}
