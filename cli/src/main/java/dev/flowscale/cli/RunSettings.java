package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.engine.checkpoint.SnapshotSigning;
import dev.flowscale.engine.cli.JobStart;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How a local run is autoscaled: the autoscaler's settings (as on a cluster) and what only a local
 * run has.
 *
 * @param autoscaler mode, policy interval, the DS2 policy's guards and the metrics window
 * @param rescaleTimeout longest a stop-with-savepoint or restore may take
 * @param storage where savepoints go
 * @param emulatedRestart how much longer the job stays down at each rescale, to emulate a cluster's
 *     pod restart
 * @param checkpointInterval how often to checkpoint; null for savepoints at rescales only
 * @param startFresh start from nothing even if {@code storage} holds snapshots (they are kept);
 *     otherwise the run resumes from the newest one ({@link JobStart})
 * @param restoreLog hears which snapshot the run resumes from, and every one it skips
 * @param checkpointTolerance how long periodic checkpoints may keep failing before the job fails
 *     over; null for the engine's default (10 s or two checkpoint intervals, whichever is longer)
 * @param signing the key that signs the run's snapshots and that a snapshot it resumes from must be
 *     signed with; {@link SnapshotSigning#NONE} for unsigned snapshots
 */
record RunSettings(
        JobAutoscaler.Settings autoscaler,
        Duration rescaleTimeout,
        Path storage,
        Duration emulatedRestart,
        Duration checkpointInterval,
        boolean startFresh,
        Consumer<String> restoreLog,
        Duration checkpointTolerance,
        SnapshotSigning signing) {

    /** Settings with the engine's default checkpoint failure tolerance, unsigned snapshots. */
    RunSettings(
            JobAutoscaler.Settings autoscaler,
            Duration rescaleTimeout,
            Path storage,
            Duration emulatedRestart,
            Duration checkpointInterval,
            boolean startFresh,
            Consumer<String> restoreLog) {
        this(
                autoscaler,
                rescaleTimeout,
                storage,
                emulatedRestart,
                checkpointInterval,
                startFresh,
                restoreLog,
                null,
                SnapshotSigning.NONE);
    }

    /** Settings of a run that resumes from its storage and says nothing about it. */
    RunSettings(
            JobAutoscaler.Settings autoscaler,
            Duration rescaleTimeout,
            Path storage,
            Duration emulatedRestart,
            Duration checkpointInterval) {
        this(
                autoscaler,
                rescaleTimeout,
                storage,
                emulatedRestart,
                checkpointInterval,
                false,
                line -> {});
    }
}
