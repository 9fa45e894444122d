package dev.flowscale.flink;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The REST calls a rescale is made of, each one step: set the adaptive scheduler's resource
 * requirements, stop with a savepoint, run the jar from a savepoint with parallelism overrides,
 * cancel, and wait for the job to run at a parallelism. Waiting polls with the clock's deadline and
 * sits out an endpoint that does not answer for a while (a restarting JobManager): the last error
 * is kept for the report.
 */
final class FlinkSteps {
    private static final Duration POLL = Duration.ofMillis(200);

    /** How long a run may stay at a parallelism other than the one asked for before it counts. */
    private static final Duration SETTLED = Duration.ofSeconds(5);

    private final FlinkJobRef job;
    private final Clock clock;
    private String lastError = "";

    FlinkSteps(FlinkJobRef job, Clock clock) {
        this.job = job;
        this.clock = clock;
    }

    void requireParallelism(Map<String, Integer> byVertexId) {
        calls().requireParallelism(job.jobId(), byVertexId);
    }

    private FlinkCalls calls() {
        return new FlinkCalls(job.rest());
    }

    /** Stops the job with a savepoint and returns the savepoint's location. */
    String stopWithSavepoint(Instant deadline) {
        String trigger = calls().triggerStop(job.jobId());
        while (clock.instant().isBefore(deadline)) {
            FlinkCalls.Savepoint savepoint = calls().savepoint(job.jobId(), trigger);
            if (savepoint.location().isPresent()) {
                return savepoint.location().get();
            }
            if (savepoint.failure().isPresent()) {
                throw new FlinkConnectorException(
                        "stop-with-savepoint of Flink job "
                                + job.jobId()
                                + " failed: "
                                + savepoint.failure().get()
                                + "; the job keeps running at its parallelism");
            }
            pause();
        }
        throw new FlinkConnectorException(
                "stop-with-savepoint of Flink job "
                        + job.jobId()
                        + " did not complete by "
                        + deadline);
    }

    /** Runs the jar from {@code savepoint} at the given parallelism; returns the new job id. */
    String run(JarResubmission jar, String savepoint, Map<String, Integer> byVertexId) {
        return calls().runJar(jar, savepoint, byVertexId);
    }

    /**
     * Cancels every run named {@code name} that started at or after {@code since} and has not
     * ended, and waits until they have: the runs a rescale started, including one whose {@code
     * jars/:id/run} answer was lost, so that a rollback never runs beside them.
     */
    void cancelRunsSince(String name, Instant since, Instant deadline) {
        for (String run : calls().runsSince(name, since)) {
            ensureStopped(run, deadline);
        }
    }

    /**
     * Cancels the run {@code jobId} unless it has ended, and waits until it has: a rollback must
     * never start a second run beside it.
     *
     * @throws FlinkConnectorException when Flink cannot be asked, or the run is still there by the
     *     deadline
     */
    void ensureStopped(String jobId, Instant deadline) {
        while (!calls().cancel(jobId)) {
            if (!clock.instant().isBefore(deadline)) {
                throw new FlinkConnectorException(
                        "Flink job " + jobId + " was not canceled by " + deadline);
            }
            pause();
        }
    }

    /**
     * Waits until every vertex runs all subtasks at {@code target} (by vertex id). Empty when it
     * does; otherwise why not, when the deadline passed.
     */
    Optional<String> awaitRunning(Map<String, Integer> target, Instant deadline) {
        return awaitRunning(target, deadline, false);
    }

    /**
     * @param fresh the run was just submitted with the target parallelism: once all its subtasks
     *     run at another one for a while, it never will (the adaptive scheduler, by contrast, may
     *     wait for a checkpoint before it rescales a running job)
     */
    Optional<String> awaitRunning(Map<String, Integer> target, Instant deadline, boolean fresh) {
        String seen = "no answer yet";
        Instant runningElsewhereSince = null;
        while (clock.instant().isBefore(deadline)) {
            try {
                FlinkJob now = job.read();
                if (now.allVerticesRunning() && FlinkCalls.runsAt(now, target)) {
                    return Optional.empty();
                }
                if (fresh && now.allVerticesRunning()) {
                    runningElsewhereSince =
                            runningElsewhereSince == null ? clock.instant() : runningElsewhereSince;
                    if (!clock.instant().isBefore(runningElsewhereSince.plus(SETTLED))) {
                        return Optional.of(
                                "Flink runs the job at "
                                        + now.parallelism()
                                        + ", not at the parallelism asked for: it did not apply "
                                        + FlinkCalls.OVERRIDES
                                        + " (Flink 2.x applies them only to job graphs,"
                                        + " and runs a jar submitted over REST as a stream graph)");
                    }
                } else {
                    runningElsewhereSince = null;
                }
                if (FlinkCalls.terminal(now.state())) {
                    return Optional.of("the job is " + now.state());
                }
                seen = "the job is " + now.state() + " at " + now.parallelism();
            } catch (FlinkConnectorException e) {
                lastError = e.getMessage();
                seen = "Flink's REST endpoint did not answer: " + e.getMessage();
            }
            pause();
        }
        return Optional.of(
                "it did not run all subtasks at the parallelism asked for by the deadline; last seen: "
                        + seen);
    }

    String lastError() {
        return lastError;
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkConnectorException("interrupted while waiting for the Flink job", e);
        }
    }
}
