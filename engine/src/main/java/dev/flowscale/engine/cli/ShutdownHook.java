package dev.flowscale.engine.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C for a command that runs a job: the JVM's shutdown runs {@code onShutdown} (ask the run to
 * stop) and then waits, up to a bound, until the run has cleaned up, which {@link #close} says.
 */
public final class ShutdownHook implements AutoCloseable {
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread thread;

    private ShutdownHook(Runnable onShutdown, Duration maxWait) {
        thread =
                new Thread(
                        () -> {
                            onShutdown.run();
                            try {
                                finished.await(maxWait.toMillis(), TimeUnit.MILLISECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "flowscale-shutdown");
    }

    /**
     * Installs a hook that runs {@code onShutdown}, then waits at most {@code maxWait} for {@link
     * #close}.
     */
    public static ShutdownHook install(Runnable onShutdown, Duration maxWait) {
        ShutdownHook hook = new ShutdownHook(onShutdown, maxWait);
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
