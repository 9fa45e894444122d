package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.checkpoint.HandOff;
import dev.flowscale.engine.checkpoint.TaskStateHandle;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Where one run's tasks deliver their snapshots: to the coordinator of the job's current run, to
 * the rescale capturing their state, and (end of input) to the run's final checkpoint.
 */
final class RunSnapshotSink implements SnapshotSink {
    private final Supplier<JobRun> current;
    private final HandOverRescale rescale;

    /** Set before the run starts, and only for this run's tasks. */
    final AtomicReference<FinalCheckpoint> finalCheckpoint = new AtomicReference<>();

    RunSnapshotSink(Supplier<JobRun> current, HandOverRescale rescale) {
        this.current = current;
        this.rescale = rescale;
    }

    private CheckpointCoordinator coordinator() {
        JobRun run = current.get();
        return run == null ? null : run.coordinator();
    }

    @Override
    public Path directory(long id) {
        CheckpointCoordinator c = coordinator();
        return c == null ? null : c.directory(id);
    }

    @Override
    public void acknowledge(long id, TaskStateHandle handle) {
        CheckpointCoordinator c = coordinator();
        if (c != null) {
            c.acknowledge(id, handle);
        }
    }

    @Override
    public void decline(long id, String task, Throwable cause) {
        CheckpointCoordinator c = coordinator();
        if (c != null) {
            c.decline(id, task, cause);
        }
    }

    @Override
    public boolean sourceAtEnd() {
        FinalCheckpoint last = finalCheckpoint.get();
        if (last != null) {
            last.sourceAtEnd();
        }
        return last != null;
    }

    @Override
    public void handOver(long id, HandOff captured) {
        if (!rescale.capture(captured)) {
            decline(id, captured.describe(), new IllegalStateException("no hand-over"));
        }
    }
}
