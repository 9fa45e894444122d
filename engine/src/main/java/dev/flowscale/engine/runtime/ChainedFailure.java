package dev.flowscale.engine.runtime;

/**
 * A failure of a chained operator, carried up through the calls of its chain to the chain's thread,
 * which then fails the job naming the chained operator's instance rather than the chain's head.
 */
final class ChainedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient TaskContext task;

    ChainedFailure(TaskContext task, Throwable cause) {
        super(task.describe() + " failed: " + cause, cause);
        this.task = task;
    }

    TaskContext task() {
        return task;
    }
}
