package dev.flowscale.engine.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The outcome of a rescale: the savepoint it went through, the parallelism before and after, and
 * how long the job was down (from stopping the sources to the restored job running).
 */
public record RescaleResult(
        Path savepoint,
        Map<String, Integer> before,
        Map<String, Integer> after,
        Duration downtime) {}
