package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.InvalidJobException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where snapshots go and how often periodic checkpoints are taken.
 *
 * @param storage   root directory of checkpoints and savepoints (in Kubernetes, a mounted volume)
 * @param interval  time between periodic checkpoints; zero for savepoints only
 * @param timeout   a snapshot not complete after this long is discarded
 * @param retained  how many complete checkpoints are kept
 */
public record CheckpointConfig(Path storage, Duration interval, Duration timeout, int retained) {

    public CheckpointConfig {
        if (storage == null) {
            throw new InvalidJobException("checkpoint config: storage is null; give a directory for snapshots");
        }
        if (interval == null || interval.isNegative()) {
            throw new InvalidJobException("checkpoint config: interval " + interval + " is invalid; use >= 0 (0: none)");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidJobException("checkpoint config: timeout " + timeout + " is invalid; use > 0");
        }
        if (retained < 1) {
            throw new InvalidJobException("checkpoint config: retained " + retained + " is invalid; keep at least 1");
        }
    }

    /** Savepoints on request only, no periodic checkpoints. */
    public static CheckpointConfig savepointsOnly(Path storage) {
        return new CheckpointConfig(storage, Duration.ZERO, Duration.ofMinutes(10), 3);
    }

    public static CheckpointConfig every(Duration interval, Path storage) {
        return new CheckpointConfig(storage, interval, Duration.ofMinutes(10), 3);
    }

    public CheckpointConfig withTimeout(Duration newTimeout) {
        return new CheckpointConfig(storage, interval, newTimeout, retained);
    }
}
