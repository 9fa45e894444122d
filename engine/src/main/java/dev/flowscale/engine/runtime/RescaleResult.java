package dev.flowscale.engine.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The outcome of a rescale: the savepoint it went through, the parallelism before and after, how
 * long the job was down (from stopping the sources to the restored job running), and how many key
 * groups stayed in memory with an instance that owns them before and after ({@code keyGroupsKept})
 * versus were read from the savepoint by their new owner ({@code keyGroupsMoved}), over all keyed
 * operators.
 */
public record RescaleResult(
        Path savepoint,
        Map<String, Integer> before,
        Map<String, Integer> after,
        Duration downtime,
        int keyGroupsKept,
        int keyGroupsMoved) {}
