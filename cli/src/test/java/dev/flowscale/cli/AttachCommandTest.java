package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.settings.Setting;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code attach}'s refusals that need no Flink cluster, and how a Flink sample and rescale reach
 * the live view and the report. An address where nothing answers, and attaching to a real Flink
 * job: {@code FlinkAttachIT} (the JDK HTTP client's first connection costs seconds here).
 */
class AttachCommandTest {
    private final CommandRun command = new CommandRun();

    @Test
    void attachRefusesAFlinkAddressThatIsNotAnHttpUrl() {
        assertThat(command.run("attach", "--flink", "localhost:8081")).isEqualTo(2);
        assertThat(command.errors())
                .contains("option --flink 'localhost:8081' is not an http(s) URL with a host")
                .contains("e.g. http://localhost:8081");
    }

    @Test
    void attachRefusesTaskSlotsBelowOneBeforeCallingFlink() {
        assertThat(command.run("attach", "--flink", "http://127.0.0.1:1", "--task-slots", "0"))
                .isEqualTo(2);
        assertThat(command.errors()).contains("option --task-slots 0: give at least 1");
    }

    @Test
    void attachsHelpShowsTheFlinkDefaultsOfTheTableForARestartFromACheckpoint() {
        assertThat(command.run("attach", "--help")).isZero();
        String usage = command.output().replaceAll("\\s+", " ");
        for (Setting s : Setting.values()) {
            assertThat(usage)
                    .as(s.option())
                    .contains("(default " + s.defaultText(Setting.Profile.FLINK) + ")");
        }
        assertThat(usage)
                .contains(
                        "defaults for a Flink job, whose rescale restarts it from its latest checkpoint")
                .contains("load, before scaling down (default 5m)")
                .contains("decide and report only (default auto)")
                .contains("How often the policy decides (default 30s)");
    }

    @Test
    void theDemoRefusesAnEngineItDoesNotKnow() {
        assertThat(command.run("demo", "--engine", "spark")).isEqualTo(2);
        assertThat(command.errors())
                .contains("option --engine 'spark' is not an engine; use embedded or flink");
    }

    @Test
    void theDemoOnFlinkIsTheFlinkDemoCommandWithTheOtherOptions() {
        assertThat(Demo.expand(List.of("demo", "--engine", "flink", "--duration", "30s")))
                .containsExactly("demo-flink", "--duration", "30s");
        assertThat(Demo.expand(List.of("demo", "--engine=embedded")).get(1))
                .isEqualTo(Demo.DEFAULTS.get(0));
    }

    @Test
    void aFlinkSampleShowsAsTheEnginesSnapshotWithTheSameRates() {
        JobTopology topology =
                new JobTopology(
                        "wc",
                        List.of(new OperatorSpec("Source", 1, 1), new OperatorSpec("Split", 2, 16)),
                        List.of(new Edge("Source", "Split")));
        Instant t0 = Instant.parse("2026-12-01T12:00:00Z");
        MetricsSample first = sample(topology, t0, 0, 0);
        MetricsSample second = sample(topology, t0.plusSeconds(10), 1000, 5);

        JobMetricsSnapshot snapshot = AttachedFlinkJob.asSnapshot(second);
        Map<String, OperatorRates> rates = snapshot.ratesSince(AttachedFlinkJob.asSnapshot(first));

        assertThat(snapshot.parallelism())
                .containsExactly(Map.entry("Source", 1), Map.entry("Split", 2));
        OperatorRates split = rates.get("Split");
        assertThat(split.parallelism()).isEqualTo(2);
        // each Split instance: 1000 records in 5 s useful of 10 s observed
        assertThat(split.trueProcessingRate()).isCloseTo(400, within(1e-6));
        assertThat(split.observedProcessingRate()).isCloseTo(200, within(1e-6));
        assertThat(rates.get("Source").backlog()).isEqualTo(7);
    }

    @Test
    void aFlinkRescaleShowsOnlyTheOperatorsItChangesWithItsPathAndSavepoint() {
        RescaleReport failed =
                new RescaleReport(
                        "wc",
                        Instant.parse("2026-12-01T12:00:06Z"),
                        Map.of("Source", 1, "Split", 1),
                        Map.of("Source", 1, "Split", 2),
                        Optional.of("s3://bucket/savepoint-1"),
                        Duration.ofSeconds(4),
                        Optional.of("timed out; rolled back"),
                        "restart",
                        Optional.empty(),
                        "");

        RescaleReport shown = AttachedFlinkJob.changedOnly(failed);

        assertThat(shown.started()).isEqualTo(Instant.parse("2026-12-01T12:00:06Z"));
        assertThat(shown.changes()).isEqualTo("Split 1 -> 2");
        assertThat(shown.summary())
                .isEqualTo(
                        "rescale of job 'wc' (Split 1 -> 2) failed after 4.0 s through savepoint"
                                + " s3://bucket/savepoint-1: timed out; rolled back");
    }

    private static MetricsSample sample(
            JobTopology topology, Instant at, double records, double useful) {
        double observed = useful == 0 ? 0 : 10;
        return new MetricsSample(
                topology,
                at,
                "flink:run",
                List.of(
                        Counters.ofSeconds(
                                "Source", 0, 2 * records, 2 * records, 0, observed, 0, 7, false),
                        Counters.ofSeconds(
                                "Split",
                                0,
                                records,
                                records,
                                useful,
                                observed - useful,
                                0,
                                0,
                                false),
                        Counters.ofSeconds(
                                "Split",
                                1,
                                records,
                                records,
                                useful,
                                observed - useful,
                                0,
                                0,
                                false)));
    }
}
