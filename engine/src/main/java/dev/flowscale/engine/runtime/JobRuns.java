package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.graph.JobGraph;
import java.time.Duration;

/** What a stop or a rescale needs from the job whose runs it ends and starts. */
interface JobRuns {
    /** The run now under way. */
    JobRun current();

    /** Starts a run of {@code graph} on {@code restored} state (null: from the start). */
    void launch(JobGraph graph, RestoredState restored);

    /**
     * After a stop or rescale that failed or ran out of time: waits up to {@code wait} for {@code
     * stopped} to end; if it does not although its sources were sent the stopping barrier, cancels
     * it (its tasks are interrupted) and waits a little more; then runs the job again from its
     * latest complete snapshot. A run whose sources never had the barrier goes on untouched.
     *
     * @return what blocked {@code stopped}, each blocked task with its thread's stack; empty when
     *     it ended by itself; null when it was left running (its sources never had the barrier)
     */
    String restoreAfterFailedStop(JobExecution stopped, Duration wait) throws InterruptedException;

    /**
     * Cancels the current run (its tasks are interrupted; they get a little time to end) and runs
     * {@code graph} from the job's latest complete snapshot: a rescale rolls back so.
     */
    void rollBackTo(JobGraph graph) throws InterruptedException;

    /** Where a stop or rescale reports what it cancelled and restored. */
    void warn(String line);
}
