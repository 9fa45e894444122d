package dev.flowscale.engine.cli;

import dev.flowscale.engine.runtime.RunningJob;
import java.io.PrintStream;
import java.time.Duration;

/** Watches a running job: prints its rates, ends it at its duration or on Ctrl-C, and closes it. */
final class JobWatch {
    /** How long the sources' last records may take to drain once the duration is over. */
    static final Duration DRAIN_GRACE = Duration.ofSeconds(5);

    /**
     * On Ctrl-C or SIGTERM: how long the job may take to drain once its sources stopped, and then
     * how long its cancelled tasks may take to end; the process exits within twice this.
     */
    static final Duration SHUTDOWN_STEP = Duration.ofMillis(2500);

    private final PrintStream out;

    JobWatch(PrintStream out) {
        this.out = out;
    }

    /**
     * Until the job ends, {@code duration} passes (null: never) or the JVM shuts down; 0 when it
     * ended so.
     */
    int watch(RunningJob job, Duration duration, Duration interval) throws InterruptedException {
        long start = System.nanoTime();
        LiveView view = new LiveView(out, start);
        try (ShutdownHook hook = ShutdownHook.install(job::stop, job::cancel, SHUTDOWN_STEP)) {
            long deadline = duration == null ? Long.MAX_VALUE : start + duration.toNanos();
            while (!job.await(
                    Duration.ofNanos(
                            Math.max(
                                    1,
                                    Math.min(interval.toNanos(), deadline - System.nanoTime()))))) {
                if (System.nanoTime() >= deadline) {
                    drainThenCancel(job);
                    break;
                }
                view.print(job.metrics());
            }
            view.summary(job.metrics());
            return CommandLines.DONE;
        } finally {
            closeQuietly(job);
        }
    }

    /**
     * Stops the sources and lets the records in flight drain for {@link #DRAIN_GRACE}; a job whose
     * operators are too slow to drain by then (e.g. a cost of seconds per record) is cancelled, so
     * a run never outlasts its duration by more than the grace.
     */
    private void drainThenCancel(RunningJob job) throws InterruptedException {
        out.println(
                "\nduration reached: stopping the sources and draining (at most "
                        + DRAIN_GRACE.toSeconds()
                        + "s)");
        job.stop();
        if (!job.await(DRAIN_GRACE)) {
            out.println(
                    "the records in flight did not drain within "
                            + DRAIN_GRACE.toSeconds()
                            + "s; cancelling the job (they are dropped)");
            job.cancel();
            job.await(DRAIN_GRACE);
        }
    }

    static void closeQuietly(RunningJob job) {
        try {
            job.close();
        } catch (Exception e) {
            System.err.println("warning: closing the job: " + e);
        }
    }
}
