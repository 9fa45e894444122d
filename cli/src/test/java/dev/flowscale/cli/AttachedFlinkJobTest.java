package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AttachedFlinkJobTest {

    @Test
    void aFailedRescaleWhoseStartingParallelismFlinkNeverToldShowsItAsUnknownNotZero() {
        RescaleReport failed =
                new RescaleReport(
                        "word-count",
                        Instant.now(),
                        Map.of(),
                        Map.of("Count", 8),
                        Optional.empty(),
                        Duration.ofSeconds(1),
                        Optional.of("Flink did not answer"),
                        "unknown",
                        Optional.empty(),
                        "");

        String shown = AttachedFlinkJob.changedOnly(failed).summary();

        assertThat(shown).contains("Count ? -> 8").doesNotContain("0 -> 8");
    }

    @Test
    void aRescaleShowsTheOperatorsItChangesFromWhereTheyWere() {
        RescaleReport done =
                new RescaleReport(
                        "word-count",
                        Instant.now(),
                        Map.of("Split", 2, "Count", 3),
                        Map.of("Split", 2, "Count", 8),
                        Optional.empty(),
                        Duration.ofSeconds(1),
                        Optional.empty(),
                        "in-place",
                        Optional.empty(),
                        "");

        String shown = AttachedFlinkJob.changedOnly(done).summary();

        assertThat(shown).contains("Count 3 -> 8").doesNotContain("Split");
    }
}
