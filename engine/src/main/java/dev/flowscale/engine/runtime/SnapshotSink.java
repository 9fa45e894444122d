package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.HandOff;
import dev.flowscale.engine.checkpoint.TaskStateHandle;
import java.nio.file.Path;

/** Where tasks take part in a snapshot: the directory to write to, and acknowledgements. */
interface SnapshotSink {
    /** The directory of snapshot {@code id}, or null if it is no longer pending. */
    Path directory(long id);

    void acknowledge(long id, TaskStateHandle handle);

    void decline(long id, String task, Throwable cause);

    /**
     * A source instance has read its whole input. Returns whether it must wait for the job's final
     * checkpoint ({@link FinalCheckpoint}): keep passing barriers on until it is asked to stop.
     */
    default boolean sourceAtEnd() {
        return false;
    }

    /**
     * Takes a task's state captured at a hand-over barrier (a rescale in this process); the task
     * writes nothing and does not acknowledge: the rescale writes the savepoint from the captures.
     */
    default void handOver(long id, HandOff captured) {
        decline(id, captured.describe(), new IllegalStateException("no hand-over is in progress"));
    }

    SnapshotSink NONE =
            new SnapshotSink() {
                @Override
                public Path directory(long id) {
                    return null;
                }

                @Override
                public void acknowledge(long id, TaskStateHandle handle) {}

                @Override
                public void decline(long id, String task, Throwable cause) {}
            };
}
