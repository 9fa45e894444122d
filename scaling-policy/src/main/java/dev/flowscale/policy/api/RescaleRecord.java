package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One rescale: when it started, when it finished (empty while in progress), its target, the path
 * that carried it out (e.g. {@value #IN_PLACE} inside the running process, or {@value #RESTART} by
 * restarting the job's process or pod), so that downtime is learned per path, and the input it cost
 * where the realizer measured it.
 *
 * <p>This is what the policy learns from, a concept of its own: how a realizer reports a rescale
 * (the autoscaler's {@code RescaleReport}, filled on every path) and what a runner answers about
 * its in-place step (the runner API's {@code RescaleView}) carry the job, savepoint and failure
 * that the policy's cost model never reads, and the policy depends on neither module.
 *
 * @param inputCost the input the rescale cost, as time at the sources' rate: from the point the
 *     job's sources resumed from (a restored checkpoint's trigger) until the job ran again, so it
 *     includes the downtime; empty where the job resumed where it stopped (a savepoint) or the
 *     realizer cannot tell, and then the downtime is the cost
 */
public record RescaleRecord(
        Instant started,
        Optional<Instant> finished,
        Map<String, Integer> target,
        boolean failed,
        String path,
        Optional<Duration> inputCost) {

    /** A rescale inside the running process (the engine's in-process rescale). */
    public static final String IN_PLACE = "in-place";

    /** A rescale that restarts the job's process or pod from a savepoint. */
    public static final String RESTART = "restart";

    public RescaleRecord {
        Checks.notNull(started, "rescale start");
        Checks.notNull(finished, "rescale finish (use Optional.empty() while in progress)");
        target = Map.copyOf(target);
        Checks.notBlank(path, "rescale path");
        Checks.notNull(inputCost, "rescale input cost (use Optional.empty() when unknown)");
        if (inputCost.filter(Duration::isNegative).isPresent()) {
            throw new PolicyException(
                    "rescale input cost must not be negative, was " + inputCost.get());
        }
    }

    public RescaleRecord(
            Instant started,
            Optional<Instant> finished,
            Map<String, Integer> target,
            boolean failed,
            String path) {
        this(started, finished, target, failed, path, Optional.empty());
    }

    public static RescaleRecord started(Instant at, Map<String, Integer> target) {
        return started(at, target, RESTART);
    }

    public static RescaleRecord started(Instant at, Map<String, Integer> target, String path) {
        return new RescaleRecord(at, Optional.empty(), target, false, path);
    }

    public RescaleRecord finishedAt(Instant at, boolean hasFailed) {
        return new RescaleRecord(started, Optional.of(at), target, hasFailed, path, inputCost);
    }

    /** This record with the input the rescale cost, as the realizer measured it. */
    public RescaleRecord withInputCost(Optional<Duration> cost) {
        return new RescaleRecord(started, finished, target, failed, path, cost);
    }

    public boolean inProgress() {
        return finished.isEmpty();
    }

    /** How long the rescale took; empty while in progress. */
    public Optional<Duration> duration() {
        return finished.map(end -> Duration.between(started, end));
    }
}
