package dev.flowscale.cli;

import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a run is autoscaled.
 *
 * @param mode AUTO rescales; RECOMMEND only reports decisions
 * @param policyInterval time between decisions
 * @param window length of the metrics window a decision is based on
 * @param warmUp samples this soon after a (re)start are ignored
 * @param policy the DS2 policy's guards
 * @param rescaleTimeout longest a stop-with-savepoint or restore may take
 * @param storage where savepoints go
 * @param emulatedRestart how much longer the job stays down at each rescale, to emulate a cluster's
 *     pod restart
 * @param checkpointInterval how often to checkpoint; null for savepoints at rescales only
 */
record AutoscalerSettings(
        Mode mode,
        Duration policyInterval,
        Duration window,
        Duration warmUp,
        PolicyConfig policy,
        Duration rescaleTimeout,
        Path storage,
        Duration emulatedRestart,
        Duration checkpointInterval) {}
