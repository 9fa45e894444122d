package dev.flowscale.engine.checkpoint;

/**
 * The marker a checkpoint sends through the dataflow: a task snapshots its state when this barrier
 * has arrived on all its inputs. A savepoint's barrier may ask the sources to stop right after it
 * ({@code stopAfter}), so that the snapshot is the job's final state.
 */
public record CheckpointBarrier(long id, boolean savepoint, boolean stopAfter) {}
