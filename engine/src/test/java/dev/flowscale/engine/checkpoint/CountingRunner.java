package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A runner process for the counting job, as a container would run it: on every start it resumes
 * from the newest complete snapshot in its storage, writes periodic checkpoints, and once every
 * record is counted stops with a savepoint and prints {@code final <path>}. Its lines on stdout:
 * {@code restore: <what Recovery chose or skipped>}, {@code running}, {@code final <savepoint>}.
 */
public final class CountingRunner {
    static final long RECORDS = 120_000;
    static final int KEYS = 500;

    /**
     * Records per second: slow enough that the stream outlives many kills, fast enough to end soon
     * after.
     */
    static final int RATE = 4_000;

    static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(150);
    static final JobGraph GRAPH =
            CountingJob.graph(
                    RateProfile.constant(RATE),
                    RECORDS,
                    KEYS,
                    Map.of(CountingJob.MAP, 2, CountingJob.COUNT, 3),
                    x -> x);

    private CountingRunner() {}

    /** {@code args[0]}: the storage folder. */
    public static void main(String[] args) throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withCheckpointing(
                                CheckpointConfig.every(CHECKPOINT_INTERVAL, Path.of(args[0])));
        try (RunningJob job =
                RunningJob.recover(
                        GRAPH, config, null, line -> System.out.println("restore: " + line))) {
            System.out.println("running");
            System.out.flush();
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(120));
            System.out.println("final " + job.stopWithSavepoint(Duration.ofSeconds(20)));
        }
        System.exit(0);
    }
}
