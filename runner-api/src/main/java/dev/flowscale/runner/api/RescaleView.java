package dev.flowscale.runner.api;

import java.time.Duration;
import java.util.Map;

/**
 * The body of a successful {@code POST /api/v1/rescale}.
 *
 * @param path the path the rescale took: always {@value #IN_PLACE} (the process and its pod stay)
 * @param savepoint the savepoint the job was restored from
 * @param before parallelism per operator before
 * @param after parallelism per operator after
 * @param downtimeSeconds from the stop until the job ran again
 */
public record RescaleView(
        String path,
        String savepoint,
        Map<String, Integer> before,
        Map<String, Integer> after,
        double downtimeSeconds) {
    public static final String IN_PLACE = "in-place";

    /** {@link #downtimeSeconds} as a duration. */
    public Duration downtime() {
        return Duration.ofNanos((long) (downtimeSeconds * 1e9));
    }
}
