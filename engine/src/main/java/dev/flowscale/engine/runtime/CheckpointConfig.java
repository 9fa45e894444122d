package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.checkpoint.SnapshotSigning;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where snapshots go, how often periodic checkpoints are taken and how failures are tolerated.
 *
 * @param storage root directory of checkpoints and savepoints (in Kubernetes, a mounted volume)
 * @param interval time between periodic checkpoints; zero for savepoints only
 * @param timeout a snapshot not complete after this long is discarded
 * @param retained how many complete checkpoints, and how many savepoints, are kept
 * @param failureTolerance how long periodic checkpoints may keep failing (from the first failure of
 *     a streak) before the job fails over (restarts from its latest snapshot as its restart
 *     strategy says); zero: the first failure fails it over
 * @param signing the deployment key that signs every snapshot written and must have signed every
 *     snapshot restored; {@link SnapshotSigning#NONE} for unsigned snapshots
 */
public record CheckpointConfig(
        Path storage,
        Duration interval,
        Duration timeout,
        int retained,
        Duration failureTolerance,
        SnapshotSigning signing) {
    public static final int DEFAULT_RETAINED = 3;

    /** The least default tolerance: a storage hiccup of a few seconds never fails a job over. */
    public static final Duration MIN_DEFAULT_TOLERANCE = Duration.ofSeconds(10);

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
        if (failureTolerance == null || failureTolerance.isNegative()) {
            throw new InvalidJobException(
                    "checkpoint config: failureTolerance "
                            + failureTolerance
                            + " is invalid; use 0s or more (0s: the first failed periodic"
                            + " checkpoint fails the job over)");
        }
        if (signing == null) {
            throw new InvalidJobException(
                    "checkpoint config: signing is null; use SnapshotSigning.NONE for unsigned"
                            + " snapshots");
        }
    }

    /** Unsigned snapshots. */
    public CheckpointConfig(
            Path storage,
            Duration interval,
            Duration timeout,
            int retained,
            Duration failureTolerance) {
        this(storage, interval, timeout, retained, failureTolerance, SnapshotSigning.NONE);
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
                interval == null ? MIN_DEFAULT_TOLERANCE : defaultTolerance(interval));
    }

    /**
     * The tolerance unless one is given: {@link #MIN_DEFAULT_TOLERANCE} or two intervals, whichever
     * is longer (at a 1 s interval a 2 s storage fault is survived; at long intervals the third
     * failure in a row fails the job over).
     */
    public static Duration defaultTolerance(Duration interval) {
        Duration twice = interval.multipliedBy(2);
        return twice.compareTo(MIN_DEFAULT_TOLERANCE) > 0 ? twice : MIN_DEFAULT_TOLERANCE;
    }

    public CheckpointConfig withTimeout(Duration newTimeout) {
        return new CheckpointConfig(
                storage, interval, newTimeout, retained, failureTolerance, signing);
    }

    public CheckpointConfig withRetained(int keep) {
        return new CheckpointConfig(storage, interval, timeout, keep, failureTolerance, signing);
    }

    public CheckpointConfig withFailureTolerance(Duration tolerance) {
        return new CheckpointConfig(storage, interval, timeout, retained, tolerance, signing);
    }

    public CheckpointConfig withSigning(SnapshotSigning keyed) {
        return new CheckpointConfig(storage, interval, timeout, retained, failureTolerance, keyed);
    }
}
