package dev.flowscale.engine.cli;

import dev.flowscale.engine.job.JobBuilder;

/**
 * A built-in job that a module beside the engine adds to the catalogue ({@link BuiltinJobs}) by
 * naming its class in {@code META-INF/services/dev.flowscale.engine.cli.BuiltinJob}: so the Kafka
 * word count lives with the Kafka connector, and the engine needs no Kafka client.
 */
public interface BuiltinJob {
    /** The name the runner and {@code ./flowscale run} take. */
    String name();

    /** The job's operators in one line, for {@code list}. */
    String shape();

    /** The job, configured and checked from {@code options}. */
    JobBuilder build(JobOptions options, boolean idleAtLimit);
}
