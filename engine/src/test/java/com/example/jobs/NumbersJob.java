package com.example.jobs;

import dev.flowscale.engine.job.JobArguments;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.job.StreamingJob;

/**
 * A user's job as the runner sees it: in a package of its own (not the engine's, so that the user
 * class loader takes it from the job's jar), with options of its own.
 */
public class NumbersJob implements StreamingJob {
    @Override
    public JobBuilder build(JobArguments arguments) {
        long records = arguments.integer("records", 1_000, 1, Long.MAX_VALUE);
        long modulus = arguments.integer("keys", 10, 1, 1_000_000);
        JobBuilder job = JobBuilder.named("numbers");
        job.source(
                        "numbers",
                        Sources.replayable(arguments.rate("rate", "max"), records, seq -> seq))
                .map("square", x -> x * x)
                .keyBy(x -> x % modulus)
                .process("sum", SumPerKey::new)
                .sink("sink", Sinks.counting());
        return job;
    }
}
