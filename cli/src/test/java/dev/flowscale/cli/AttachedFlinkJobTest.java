package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.flink.FlinkRescaleReport;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AttachedFlinkJobTest {

    @Test
    void aFailedRescaleWhoseStartingParallelismFlinkNeverToldShowsItAsUnknownNotZero() {
        FlinkRescaleReport failed =
                new FlinkRescaleReport(
                        "word-count",
                        "unknown",
                        Map.of(),
                        Map.of("Count", 8),
                        Optional.empty(),
                        Duration.ofSeconds(1),
                        Optional.of("Flink did not answer"),
                        Optional.empty(),
                        "");

        String shown = AttachedFlinkJob.asRescaleReport(failed, Instant.now()).summary();

        assertThat(shown).contains("Count ? -> 8").doesNotContain("0 -> 8");
    }

    @Test
    void aRescaleShowsTheOperatorsItChangesFromWhereTheyWere() {
        FlinkRescaleReport done =
                new FlinkRescaleReport(
                        "word-count",
                        "in-place",
                        Map.of("Split", 2, "Count", 3),
                        Map.of("Split", 2, "Count", 8),
                        Optional.empty(),
                        Duration.ofSeconds(1),
                        Optional.empty(),
                        Optional.empty(),
                        "");

        String shown = AttachedFlinkJob.asRescaleReport(done, Instant.now()).summary();

        assertThat(shown).contains("Count 3 -> 8").doesNotContain("Split");
    }
}
