package dev.flowscale.runner.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * How a runner's in-place rescale went: what the engine's {@code RunningJob.rescale} returns and
 * the body of a successful {@code POST /api/v1/rescale}, one record from the engine to the runner's
 * clients. A realizer reports the rescale on to the autoscaler as its {@code RescaleReport}, which
 * adds the job, when it started and, where it failed, why.
 *
 * @param path the path the rescale took: always {@value #IN_PLACE} (the process and its pod stay)
 * @param savepoint the savepoint the job was restored from, an absolute path on the runner's
 *     storage; complete (its manifest committed) when this is returned
 * @param before parallelism per operator before
 * @param after parallelism per operator after
 * @param downtimeSeconds from the stop request until the first record was processed at the new
 *     parallelism
 * @param keyGroupsKept key groups, over all keyed operators, that stayed where they were (on the
 *     heap with an instance of the same index, on RocksDB in the stopped store a new instance
 *     starts from); 0 in the JSON of an older runner
 * @param keyGroupsMoved key groups that changed owner (on the heap handed over in memory, on
 *     RocksDB copied between stores); 0 in the JSON of an older runner
 */
public record RescaleView(
        String path,
        String savepoint,
        Map<String, Integer> before,
        Map<String, Integer> after,
        double downtimeSeconds,
        int keyGroupsKept,
        int keyGroupsMoved) {
    public static final String IN_PLACE = "in-place";

    /** {@link #downtimeSeconds} as a duration. */
    public Duration downtime() {
        return Duration.ofNanos(Math.round(downtimeSeconds * 1e9));
    }

    /** {@link #savepoint} as a path on the runner's storage. */
    public Path savepointPath() {
        return Path.of(savepoint);
    }
}
