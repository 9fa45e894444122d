package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.graph.JobGraph;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A job's runs as a stop or rescale sees them, and how the job runs again after one failed, ran out
 * of time or rolls back: from its latest complete snapshot.
 */
final class RunRecovery implements JobRuns {
    /**
     * How long the tasks of a run that a stop or rescale cancelled may take to end once
     * interrupted; the job runs again from its latest snapshot after that even if one still runs.
     */
    static final Duration CANCEL_WAIT = Duration.ofSeconds(5);

    /** How long a run whose stopping snapshot failed may take to drain before it is cancelled. */
    static final Duration DRAIN_AFTER_FAILURE = Duration.ofSeconds(5);

    private final JobLifecycle lifecycle;
    private final CheckpointTrigger trigger;
    private final Supplier<JobRun> current;
    private final BiConsumer<JobGraph, RestoredState> launch;

    RunRecovery(
            JobLifecycle lifecycle,
            CheckpointTrigger trigger,
            Supplier<JobRun> current,
            BiConsumer<JobGraph, RestoredState> launch) {
        this.lifecycle = lifecycle;
        this.trigger = trigger;
        this.current = current;
        this.launch = launch;
    }

    @Override
    public JobRun current() {
        return current.get();
    }

    @Override
    public void launch(JobGraph graph, RestoredState restored) {
        launch.accept(graph, restored);
    }

    @Override
    public String restoreAfterFailedStop(JobExecution stopped, Duration wait)
            throws InterruptedException {
        if (!stopped.stopBarrierSent()) {
            return null;
        }
        String blocked = "";
        if (!stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
            blocked = BlockedTasks.describe(stopped);
            stopped.cancel();
            stopped.await(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        JobLifecycle.Phase phase = lifecycle.phase();
        if (phase != JobLifecycle.Phase.STOPPING && phase != JobLifecycle.Phase.RESCALING) {
            return blocked; // fenced or ended meanwhile: nothing runs again
        }
        runFromLatest(current().graph());
        lifecycle.moveFrom(phase, JobLifecycle.Phase.RUNNING);
        return blocked;
    }

    @Override
    public void rollBackTo(JobGraph graph) throws InterruptedException {
        if (!lifecycle.moveFrom(JobLifecycle.Phase.SETTLING, JobLifecycle.Phase.RESCALING)) {
            return; // the new run failed, was fenced or cancelled meanwhile: that decides
        }
        JobExecution rolledBack = current().execution();
        rolledBack.cancel();
        rolledBack.await(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        runFromLatest(graph);
        lifecycle.moveFrom(JobLifecycle.Phase.RESCALING, JobLifecycle.Phase.RUNNING);
    }

    private void runFromLatest(JobGraph graph) {
        launch(graph, trigger.restoreLatest(graph));
    }

    @Override
    public void warn(String line) {
        System.err.println("warning: " + line);
    }
}
