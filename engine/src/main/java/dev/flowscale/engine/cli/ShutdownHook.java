package dev.flowscale.engine.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C or SIGTERM for a command that runs a job: the JVM's shutdown runs {@code onShutdown} (ask
 * the run to stop) and then waits, up to a bound, until the run has cleaned up, which {@link
 * #close} says; if it has not by then, {@code onTimeout} runs (cancel the run: its tasks are
 * interrupted) and the hook waits once more, at most {@code maxWait}. The JVM then exits whatever
 * the run's threads do, so a user function that never returns cannot keep the process alive.
 */
public final class ShutdownHook implements AutoCloseable {
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread thread;

    private final Runnable onShutdown;
    private final Runnable onTimeout;
    private final Duration maxWait;

    /** A hook not installed yet (tests run {@link #shutDown} themselves). */
    ShutdownHook(Runnable onShutdown, Runnable onTimeout, Duration maxWait) {
        this.onShutdown = onShutdown;
        this.onTimeout = onTimeout;
        this.maxWait = maxWait;
        thread = new Thread(this::shutDown, "flowscale-shutdown");
    }

    /** The hook's work: at most twice {@code maxWait} plus what the two callbacks take. */
    void shutDown() {
        try {
            onShutdown.run();
            if (!finished.await(maxWait.toMillis(), TimeUnit.MILLISECONDS)) {
                onTimeout.run();
                finished.await(maxWait.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Installs a hook that runs {@code onShutdown}, then waits at most {@code maxWait} for {@link
     * #close}.
     */
    public static ShutdownHook install(Runnable onShutdown, Duration maxWait) {
        return install(onShutdown, () -> {}, maxWait);
    }

    /**
     * Installs a hook that runs {@code onShutdown}, waits at most {@code maxWait} for {@link
     * #close}, and if that has not come runs {@code onTimeout} and waits at most {@code maxWait}
     * again.
     */
    public static ShutdownHook install(Runnable onShutdown, Runnable onTimeout, Duration maxWait) {
        ShutdownHook hook = new ShutdownHook(onShutdown, onTimeout, maxWait);
        Runtime.getRuntime().addShutdownHook(hook.thread);
        return hook;
    }

    /** The run has cleaned up: a running hook may return, and the hook is removed. */
    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(thread);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook is running.
        }
    }
}
