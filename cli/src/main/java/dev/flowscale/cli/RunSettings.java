package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import java.nio.file.Path;
import java.time.Duration;

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
 */
record RunSettings(
        JobAutoscaler.Settings autoscaler,
        Duration rescaleTimeout,
        Path storage,
        Duration emulatedRestart,
        Duration checkpointInterval) {}
