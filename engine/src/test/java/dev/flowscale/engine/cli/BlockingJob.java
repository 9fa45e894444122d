package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.job.JobArguments;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.job.StreamingJob;
import java.util.concurrent.CountDownLatch;

/**
 * A user job that blocks forever, ignoring interruption, where {@code --block} says: in its map
 * function on the first record ({@code function}), as its source opens ({@code open}), or while the
 * runner builds its graph ({@code build}, a start-up that never ends). It prints {@link #BLOCKED}
 * once it is blocked.
 */
public class BlockingJob implements StreamingJob {
    public static final String BLOCKED = "blocked forever in ";

    @Override
    public JobBuilder build(JobArguments arguments) {
        String where = arguments.text("block", "function");
        if (where.equals("build")) {
            blockForever("build");
        }
        JobBuilder job = JobBuilder.named("blocking");
        SourceFunction<Long> source =
                where.equals("open")
                        ? context -> blockForever("open")
                        : Sources.generator(arguments.rate("rate", "100"), seq -> seq);
        job.source("numbers", source)
                .map(
                        "stuck",
                        x -> {
                            blockForever("function");
                            return x;
                        })
                .sink("sink", Sinks.counting());
        return job;
    }

    private static <T> T blockForever(String where) {
        System.out.println(BLOCKED + where);
        System.out.flush();
        CountDownLatch never = new CountDownLatch(1);
        while (true) {
            try {
                never.await();
            } catch (InterruptedException e) {
                // Ignored on purpose: user code that does not end when its thread is interrupted.
            }
        }
    }
}
