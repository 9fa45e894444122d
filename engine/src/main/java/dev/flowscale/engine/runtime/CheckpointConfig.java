package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.InvalidJobException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where snapshots go, how often periodic checkpoints are taken and how failures are tolerated.
 *
 * @param storage root directory of checkpoints and savepoints (in Kubernetes, a mounted volume)
 * @param interval time between periodic checkpoints; zero for savepoints only
 * @param timeout a snapshot not complete after this long is discarded
 * @param retained how many complete checkpoints, and how many savepoints, are kept
 * @param failoverAfter after this many periodic checkpoints failed in a row the job fails over
 *     (restarts from its latest snapshot as its restart strategy says)
 */
public record CheckpointConfig(
        Path storage, Duration interval, Duration timeout, int retained, int failoverAfter) {
    public static final int DEFAULT_RETAINED = 3;
    public static final int DEFAULT_FAILOVER_AFTER = 3;

    public CheckpointConfig {
        if (storage == null) {
            throw new InvalidJobException(
                    "checkpoint config: storage is null; give a directory for snapshots");
        }
        if (interval == null || interval.isNegative()) {
            throw new InvalidJobException(
                    "checkpoint config: interval " + interval + " is invalid; use >= 0 (0: none)");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidJobException(
                    "checkpoint config: timeout " + timeout + " is invalid; use > 0");
        }
        if (retained < 1) {
            throw new InvalidJobException(
                    "checkpoint config: retained " + retained + " is invalid; keep at least 1");
        }
        if (failoverAfter < 1) {
            throw new InvalidJobException(
                    "checkpoint config: failoverAfter "
                            + failoverAfter
                            + " is invalid; use >= 1 (1: the first failed checkpoint fails the job over)");
        }
    }

    /** Savepoints on request only, no periodic checkpoints. */
    public static CheckpointConfig savepointsOnly(Path storage) {
        return every(Duration.ZERO, storage);
    }

    public static CheckpointConfig every(Duration interval, Path storage) {
        return new CheckpointConfig(
                storage,
                interval,
                Duration.ofMinutes(10),
                DEFAULT_RETAINED,
                DEFAULT_FAILOVER_AFTER);
    }

    public CheckpointConfig withTimeout(Duration newTimeout) {
        return new CheckpointConfig(storage, interval, newTimeout, retained, failoverAfter);
    }

    public CheckpointConfig withRetained(int keep) {
        return new CheckpointConfig(storage, interval, timeout, keep, failoverAfter);
    }

    public CheckpointConfig withFailoverAfter(int failures) {
        return new CheckpointConfig(storage, interval, timeout, retained, failures);
    }
}
