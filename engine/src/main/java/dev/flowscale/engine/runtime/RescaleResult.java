package dev.flowscale.engine.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The outcome of a rescale: the savepoint it went through (written after the hand-over while the
 * new run works; complete, its manifest committed, when this is returned), the parallelism before
 * and after, how long the job was down (from the stop request to the first record processed at the
 * new parallelism, see {@link RunningJob#rescale}), and how many key groups stayed where they were
 * ({@code keyGroupsKept}: on the heap with an instance of the same index, on RocksDB in the stopped
 * store a new instance starts from) versus changed owner ({@code keyGroupsMoved}: on the heap
 * handed over in memory, on RocksDB copied between stores), over all keyed operators.
 */
public record RescaleResult(
        Path savepoint,
        Map<String, Integer> before,
        Map<String, Integer> after,
        Duration downtime,
        int keyGroupsKept,
        int keyGroupsMoved) {}
