package dev.flowscale.engine.checkpoint;

/**
 * The marker a checkpoint sends through the dataflow: a task snapshots its state when this barrier
 * has arrived on all its inputs. A savepoint's barrier may ask the sources to stop right after it
 * ({@code stopAfter}), so that the snapshot is the job's final state. A {@code handOver} barrier (a
 * rescale inside this process) asks each task to capture its state instead of writing it: the tasks
 * stop, their state moves to the next run in memory, and the savepoint is written from the captured
 * state while the next run already works (see {@link HandOff}).
 */
public record CheckpointBarrier(long id, boolean savepoint, boolean stopAfter, boolean handOver) {

    public CheckpointBarrier(long id, boolean savepoint, boolean stopAfter) {
        this(id, savepoint, stopAfter, false);
    }
}
