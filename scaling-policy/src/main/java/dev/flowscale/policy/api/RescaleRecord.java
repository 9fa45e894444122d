package dev.flowscale.policy.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** One rescale: when it started, when it finished (empty while in progress), and its target. */
public record RescaleRecord(Instant started, Optional<Instant> finished, Map<String, Integer> target,
        boolean failed) {

    public RescaleRecord {
        Checks.notNull(started, "rescale start");
        Checks.notNull(finished, "rescale finish (use Optional.empty() while in progress)");
        target = Map.copyOf(target);
    }

    public static RescaleRecord started(Instant at, Map<String, Integer> target) {
        return new RescaleRecord(at, Optional.empty(), target, false);
    }

    public RescaleRecord finishedAt(Instant at, boolean hasFailed) {
        return new RescaleRecord(started, Optional.of(at), target, hasFailed);
    }

    public boolean inProgress() {
        return finished.isEmpty();
    }

    /** How long the rescale took; empty while in progress. */
    public Optional<Duration> duration() {
        return finished.map(end -> Duration.between(started, end));
    }
}
