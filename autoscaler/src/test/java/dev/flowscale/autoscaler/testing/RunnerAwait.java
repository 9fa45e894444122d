package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.realizer.RealizeException;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.RunnerApiException;
import dev.flowscale.runner.api.RunnerClient;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Waits for a runner to run its job at a given parallelism, reading it with the runner API's
 * client.
 */
public final class RunnerAwait {
    private static final Duration POLL = Duration.ofMillis(100);

    private RunnerAwait() {}

    /**
     * Whether {@code job} is RUNNING with every operator of {@code expected} at its parallelism.
     */
    public static boolean runs(JobView job, Map<String, Integer> expected) {
        return job.running() && job.parallelism().entrySet().containsAll(expected.entrySet());
    }

    /** {@code GET /api/v1/job} of the runner, or a {@link RealizeException} naming the request. */
    public static JobView job(RunnerClient runner) {
        try {
            return runner.job();
        } catch (RunnerApiException e) {
            throw new RealizeException(e.getMessage(), e);
        }
    }

    /**
     * Polls {@code GET /api/v1/job} until the runner reports RUNNING at {@code expected}; fails
     * after {@code timeout}, or at once when {@code alive} turns false.
     */
    public static JobView awaitRunning(
            RunnerClient runner,
            Map<String, Integer> expected,
            Duration timeout,
            BooleanSupplier alive) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (alive.getAsBoolean()) {
            try {
                JobView job = runner.job();
                if (runs(job, expected)) {
                    return job;
                }
                last = job.status() + " at " + job.parallelism();
            } catch (RunnerApiException e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new RealizeException(
                        "runner "
                                + runner.base()
                                + " did not report RUNNING at "
                                + expected
                                + " within "
                                + timeout
                                + " (last: "
                                + last
                                + ")");
            }
            pause();
        }
        throw new RealizeException(
                "runner "
                        + runner.base()
                        + " exited before it reported RUNNING at "
                        + expected
                        + " (last: "
                        + last
                        + ")");
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RealizeException("interrupted while waiting for a runner", e);
        }
    }
}
