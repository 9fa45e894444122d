package dev.flowscale.engine.runtime;

/** What every task of one job run shares. */
record RunSettings(JobConfig config, Cancellation cancellation, Task.JobFailureHandler failures,
                   SnapshotSink snapshots, dev.flowscale.engine.checkpoint.RestoredState restored) {
}
