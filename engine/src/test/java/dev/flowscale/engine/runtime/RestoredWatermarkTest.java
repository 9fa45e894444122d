package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A restore where operators stood at different watermarks: the left input had ended (its map,
 * "tap", at the final watermark) while the right one was held back, so the join behind both stood
 * lower. The restored tap must tell the new join instances its watermark again, or they wait for it
 * forever and never fire their last timers.
 */
class RestoredWatermarkTest {
    private static final long LEFT = 200;
    private static final long RIGHT = 400;
    private static final long HELD = 100;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** A constant rate that stops at {@code held} records until {@link #release}d. */
    static final class HeldRate implements RateProfile {
        private final RateProfile rate = RateProfile.constant(20_000);
        private final long held;
        private volatile boolean released;

        HeldRate(long held) {
            this.held = held;
        }

        void release() {
            released = true;
        }

        @Override
        public double rateAt(double tSeconds) {
            return rate.rateAt(tSeconds);
        }

        @Override
        public long dueBy(double tSeconds) {
            long due = rate.dueBy(tSeconds);
            return released ? due : Math.min(held, due);
        }

        @Override
        public String describe() {
            return rate.describe() + (released ? "" : ", held at " + held);
        }
    }

    private static JobGraph graph(HeldRate right) {
        JobBuilder job = JobBuilder.named("restored-watermarks");
        var strategy =
                WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofMillis(5), (Long seq) -> seq)
                        .withInterval(Duration.ofMillis(10));
        var leftStream =
                job.source(
                                "left",
                                Sources.replayable(RateProfile.constant(20_000), LEFT, s -> s),
                                strategy)
                        .map("tap", seq -> seq)
                        .keyBy(seq -> seq % 4);
        var rightStream =
                job.source("right", Sources.replayable(right, RIGHT, s -> s), strategy)
                        .keyBy(seq -> seq % 4);
        leftStream
                .connect(rightStream)
                .intervalJoin(
                        "join",
                        Duration.ofMillis(-4),
                        Duration.ofMillis(4),
                        (a, b) -> a * 1000 + b,
                        Long.class,
                        Long.class)
                .sink("sink", Sinks.counting());
        return job.build();
    }

    @ParameterizedTest(name = "on the {0} backend")
    @EnumSource(StateBackendConfig.Kind.class)
    void anOperatorRestoredAtTheFinalWatermarkSendsItOnToItsNewConsumers(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        HeldRate right = new HeldRate(HELD);
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(StateBackendConfig.named(backend.name()))
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir));
        try (RunningJob job = RunningJob.start(graph(right), config)) {
            Await.until(
                    TIMEOUT,
                    "the final watermark at 'tap' and the held one at 'join'",
                    () ->
                            job.processedWatermark("tap") == Long.MAX_VALUE
                                    && job.processedWatermark("join") > 0);
            assertThat(job.processedWatermark("join")).isLessThan(HELD);

            job.rescale(Map.of("join", 2), TIMEOUT);
            right.release();

            Await.until(
                    TIMEOUT,
                    "the final watermark at 'join' after the rescale",
                    () -> job.processedWatermark("join") == Long.MAX_VALUE);
        }
    }
}
