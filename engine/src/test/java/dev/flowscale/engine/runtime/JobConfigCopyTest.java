package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.state.StateBackendConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class JobConfigCopyTest {

    @Test
    void eachWitherChangesItsPartAndKeepsTheOthers() {
        Clock clock = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
        CheckpointConfig checkpoints = CheckpointConfig.savepointsOnly(Path.of("/tmp/a"));
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(7)
                        .withChannelCapacity(3)
                        .withInstrumentation(false)
                        .withRateWindow(Duration.ofSeconds(9))
                        .withCheckpointing(checkpoints)
                        .withRestartStrategy(RestartStrategy.none())
                        .withClock(clock)
                        .withLatencyTracking(Duration.ofMillis(200));

        assertThat(config.batchSize()).isEqualTo(7);
        assertThat(config.channelCapacity()).isEqualTo(3);
        assertThat(config.instrumented()).isFalse();
        assertThat(config.rateWindow()).isEqualTo(Duration.ofSeconds(9));
        assertThat(config.checkpointing()).isEqualTo(checkpoints);
        assertThat(config.clock()).isEqualTo(clock);
        assertThat(config.latencyInterval()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aCopyKeepsTheBackendAsGivenSoItsFolderFollowsNewStorage() {
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(StateBackendConfig.rocksDb())
                        .withCheckpointing(CheckpointConfig.savepointsOnly(Path.of("/tmp/a")))
                        .withLatencyTracking(Duration.ofMillis(100))
                        .withCheckpointing(CheckpointConfig.savepointsOnly(Path.of("/tmp/b")));

        assertThat(config.stateBackend().localDir())
                .isEqualTo(Path.of("/tmp/b").resolve(JobConfig.LOCAL_STATE));
    }
}
