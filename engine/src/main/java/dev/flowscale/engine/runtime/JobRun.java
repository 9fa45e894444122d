package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.graph.JobGraph;

/**
 * One run of a job with what takes its snapshots: the graph at its parallelism, the execution and
 * its checkpoint coordinator (null without snapshot storage).
 */
record JobRun(JobGraph graph, JobExecution execution, CheckpointCoordinator coordinator) {}
