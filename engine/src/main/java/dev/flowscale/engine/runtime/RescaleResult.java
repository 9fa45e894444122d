package dev.flowscale.engine.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The outcome of a rescale: the savepoint it went through (after a hand-over on the heap backend it
 * is still being written when this is returned; complete once its manifest exists), the parallelism
 * before and after, how long the job was down (from the stop request to the first record processed
 * at the new parallelism, see {@link RunningJob#rescale}), and how many key groups stayed with an
 * instance of the same index ({@code keyGroupsKept}) versus changed owner ({@code keyGroupsMoved}:
 * read from the savepoint, or on the heap handed over in memory), over all keyed operators.
 */
public record RescaleResult(
        Path savepoint,
        Map<String, Integer> before,
        Map<String, Integer> after,
        Duration downtime,
        int keyGroupsKept,
        int keyGroupsMoved) {}
