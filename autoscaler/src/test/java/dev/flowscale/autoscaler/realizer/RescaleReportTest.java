package dev.flowscale.autoscaler.realizer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.RescaleRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RescaleReportTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aSuccessNamesTheJobChangesSavepointAndDowntime() {
        RescaleReport report =
                RescaleReport.restart(
                        "wc",
                        START,
                        Map.of("count", 2, "split", 1),
                        Map.of("count", 4, "split", 2),
                        Path.of("/sp/1"),
                        Duration.ofMillis(1250));

        assertThat(report.succeeded()).isTrue();
        assertThat(report.changes()).isEqualTo("count 2 -> 4, split 1 -> 2");
        assertThat(report.summary())
                .isEqualTo(
                        "job 'wc' rescaled (count 2 -> 4, split 1 -> 2) through savepoint /sp/1; "
                                + "down for 1.3 s");
    }

    @Test
    void aFailureSaysWhy() {
        RescaleReport report =
                RescaleReport.restart(
                                "wc",
                                START,
                                Map.of("count", 2),
                                Map.of("count", 4),
                                null,
                                Duration.ZERO)
                        .failedBecause("no operator 'x'");

        assertThat(report.succeeded()).isFalse();
        assertThat(report.savepoint()).isEmpty();
        assertThat(report.summary())
                .isEqualTo(
                        "rescale of job 'wc' (count 2 -> 4) failed after 0.0 s: no operator 'x'");
    }

    @Test
    void anUnknownParallelismBeforeIsShownAsAQuestionMark() {
        RescaleReport report =
                RescaleReport.restart(
                                "wc", START, Map.of(), Map.of("count", 4), null, Duration.ZERO)
                        .failedBecause("runner unreachable");

        assertThat(report.changes()).isEqualTo("count ? -> 4");
    }

    @Test
    void anInPlaceFlinkRescaleSaysItsPathInputCostAndCheckpointInTheSameRecord() {
        RescaleReport report =
                new RescaleReport(
                                "wc",
                                START,
                                Map.of("split", 1),
                                Map.of("split", 2),
                                Optional.empty(),
                                Duration.ofSeconds(9),
                                Optional.empty(),
                                RescaleRecord.IN_PLACE,
                                Optional.empty(),
                                "")
                        .withCheckpoint(
                                Optional.of(Duration.ofMillis(4200)),
                                "a checkpoint was taken first",
                                Duration.ofMillis(3100));

        assertThat(report.path()).isEqualTo(RescaleRecord.IN_PLACE);
        assertThat(report.downtime()).isEqualTo(Duration.ofMillis(3100));
        assertThat(report.summary())
                .isEqualTo(
                        "job 'wc' rescaled (split 1 -> 2) in place; down for 3.1 s; it cost 4.2 s"
                                + " of input (from the restored checkpoint's trigger); a checkpoint"
                                + " was taken first");
    }

    @Test
    void aLocalSavepointRescaleIsARestartWithTheFolderAsItsLocation() {
        RescaleReport report =
                RescaleReport.restart(
                        "wc",
                        START,
                        Map.of("count", 1),
                        Map.of("count", 2),
                        Path.of("/sp/2"),
                        Duration.ofSeconds(1));

        assertThat(report.path()).isEqualTo(RescaleRecord.RESTART);
        assertThat(report.savepoint()).contains("/sp/2");
    }
}
