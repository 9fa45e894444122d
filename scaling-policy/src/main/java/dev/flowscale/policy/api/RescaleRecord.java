package dev.flowscale.policy.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One rescale: when it started, when it finished (empty while in progress), its target, and the
 * path that carried it out (e.g. {@value #IN_PLACE} inside the running process, or {@value
 * #RESTART} by restarting the job's process or pod), so that downtime is learned per path.
 */
public record RescaleRecord(
        Instant started,
        Optional<Instant> finished,
        Map<String, Integer> target,
        boolean failed,
        String path) {

    /** A rescale inside the running process (the engine's in-process rescale). */
    public static final String IN_PLACE = "in-place";

    /** A rescale that restarts the job's process or pod from a savepoint. */
    public static final String RESTART = "restart";

    public RescaleRecord {
        Checks.notNull(started, "rescale start");
        Checks.notNull(finished, "rescale finish (use Optional.empty() while in progress)");
        target = Map.copyOf(target);
        Checks.notBlank(path, "rescale path");
    }

    public static RescaleRecord started(Instant at, Map<String, Integer> target) {
        return started(at, target, RESTART);
    }

    public static RescaleRecord started(Instant at, Map<String, Integer> target, String path) {
        return new RescaleRecord(at, Optional.empty(), target, false, path);
    }

    public RescaleRecord finishedAt(Instant at, boolean hasFailed) {
        return new RescaleRecord(started, Optional.of(at), target, hasFailed, path);
    }

    public boolean inProgress() {
        return finished.isEmpty();
    }

    /** How long the rescale took; empty while in progress. */
    public Optional<Duration> duration() {
        return finished.map(end -> Duration.between(started, end));
    }
}
