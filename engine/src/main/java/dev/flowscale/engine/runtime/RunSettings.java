package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.RestoredState;

/** What every task of one job run shares. */
record RunSettings(
        JobConfig config,
        Cancellation cancellation,
        Task.JobFailureHandler failures,
        SnapshotSink snapshots,
        RestoredState restored,
        Runnable firstRecord) {}
