package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.runner.api.CheckpointStatus;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint statistics a runner exports, under the Prometheus names docs/durability.md lists.
 */
class CheckpointStatsTest {

    @Test
    void failuresAndCompletionsAreCountedLoggedAndExportedWithTheAgeOfTheLastCompletedOne() {
        ManualClock clock = new ManualClock(Instant.parse("2026-12-01T05:00:00Z"));
        List<String> log = new ArrayList<>();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (CheckpointStats stats = new CheckpointStats("wc", clock, log::add)) {
            stats.bind(registry);
            assertThat(registry.scrape())
                    .contains("flowscale_checkpoint_last_completed_age_seconds{job=\"wc\"} NaN");

            stats.completed(4, Path.of("/data/wc/checkpoints/chk-4"));
            clock.advance(Duration.ofSeconds(30));
            stats.failed("checkpoint", true, new IllegalStateException("disk full"));
            assertThat(
                            stats.failed(
                                    "checkpoint",
                                    true,
                                    new IllegalStateException("disk still full")))
                    .isEqualTo(2);

            assertThat(log)
                    .containsExactly(
                            "checkpoint of job 'wc' failed: disk full (1 in a row)",
                            "checkpoint of job 'wc' failed: disk still full (2 in a row)");
            assertThat(registry.scrape())
                    .contains("flowscale_checkpoints_completed_total{job=\"wc\"} 1.0")
                    .contains("flowscale_checkpoints_failed_total{job=\"wc\"} 2.0")
                    .contains("flowscale_checkpoints_consecutive_failures{job=\"wc\"} 2.0")
                    .contains("flowscale_checkpoint_last_completed_age_seconds{job=\"wc\"} 30.0");
            assertThat(stats.status())
                    .isEqualTo(
                            new CheckpointStatus(
                                    1,
                                    2,
                                    2,
                                    4L,
                                    "2026-12-01T05:00:00Z",
                                    "/data/wc/checkpoints/chk-4",
                                    "2026-12-01T05:00:30Z",
                                    "disk still full"));
        }
        assertThat(registry.scrape())
                .as("closing unregisters")
                .doesNotContain("flowscale_checkpoints");
    }

    @Test
    void aFailedSavepointIsCountedButDoesNotAddToTheFailuresInARow() {
        try (CheckpointStats stats =
                new CheckpointStats(
                        "wc", new ManualClock(Instant.parse("2026-12-01T05:00:00Z")), line -> {})) {
            stats.failed("savepoint", false, new IllegalStateException("declined"));
            assertThat(stats.status().failed()).isEqualTo(1);
            assertThat(stats.status().consecutiveFailures()).isZero();
        }
    }
}
