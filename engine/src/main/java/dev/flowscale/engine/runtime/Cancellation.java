package dev.flowscale.engine.runtime;

import java.util.concurrent.CancellationException;

/** The job-wide stop flag that every blocking wait checks, so no task can hang on a dead job. */
final class Cancellation {
    private volatile boolean cancelled;

    void cancel() {
        cancelled = true;
    }

    boolean isCancelled() {
        return cancelled;
    }

    void check() {
        if (cancelled) {
            throw new CancellationException("job cancelled");
        }
    }
}
