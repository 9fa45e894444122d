package dev.flowscale.autoscaler.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerMetricsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final JobTopology TOPOLOGY =
            new JobTopology(
                    "wc",
                    List.of(OperatorSpec.of("src", 1), OperatorSpec.of("count", 2)),
                    List.of(new Edge("src", "count")));
    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ControllerMetrics metrics = new ControllerMetrics(registry, Mode.AUTO);

    @Test
    void afterADecisionTheScrapeHasEveryOperatorSeriesAndTheDecisionCounter() {
        metrics.onWindow(
                TOPOLOGY,
                MetricsWindow.of(
                        NOW.minusSeconds(30),
                        NOW,
                        List.of(
                                OperatorMetrics.of("src", 1, 5000, 5000, 1000, 1000)
                                        .withSource(1200, 340.0),
                                OperatorMetrics.of("count", 2, 800, 0, 700, 0))));
        metrics.onDecision(
                ScalingDecision.of(
                        NOW,
                        "wc",
                        List.of("DS2"),
                        List.of(
                                new OperatorDecision(
                                        "src", 1, 1, 1, 1200, 5000, 0.24, 0, List.of()),
                                new OperatorDecision(
                                        "count", 2, 3, 3, 1200, 400, 1.0, 0, List.of()))));

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("flowscale_controller_parallelism{job=\"wc\",operator=\"count\"} 2.0")
                .contains(
                        "flowscale_controller_recommended_parallelism{job=\"wc\",operator=\"count\"} 3.0")
                .contains("flowscale_controller_new_parallelism{job=\"wc\",operator=\"count\"} 3.0")
                .contains(
                        "flowscale_controller_target_input_rate_records_per_second{job=\"wc\",operator=\"count\"} 1200.0")
                .contains("flowscale_controller_utilization{job=\"wc\",operator=\"src\"} 0.24")
                .contains(
                        "flowscale_controller_true_processing_rate_records_per_second{job=\"wc\",operator=\"count\"} 800.0")
                .contains(
                        "flowscale_controller_observed_processing_rate_records_per_second{job=\"wc\",operator=\"count\"} 700.0")
                .contains(
                        "flowscale_controller_source_backlog_records{job=\"wc\",operator=\"src\"} 340.0")
                .contains(
                        "flowscale_controller_decisions_total{job=\"wc\",outcome=\"scaled\",reason=\"none\"} 1.0");
    }

    @Test
    void blockedDecisionsAreCountedByReasonAndRecommendModeCountsRecommendations() {
        ControllerMetrics recommending = new ControllerMetrics(registry, Mode.RECOMMEND);
        recommending.onDecision(
                ScalingDecision.blocked(NOW, "wc", BlockReason.METRICS_MISSING, "no window"));
        recommending.onDecision(
                ScalingDecision.blocked(NOW, "wc", BlockReason.METRICS_MISSING, "no window"));
        recommending.onDecision(
                ScalingDecision.of(
                        NOW,
                        "wc",
                        List.of(),
                        List.of(
                                new OperatorDecision(
                                        "count", 2, 4, 4, 1200, 300, 1.0, 0, List.of()))));
        recommending.onDecision(
                ScalingDecision.withinDeadBand(
                        NOW,
                        "wc",
                        List.of(),
                        List.of(
                                new OperatorDecision(
                                        "count", 2, 2, 3, 1200, 500, 1.2, 0, List.of()))));

        assertThat(registry.scrape())
                .contains(
                        "flowscale_controller_decisions_total{job=\"wc\",outcome=\"blocked\",reason=\"metrics_missing\"} 2.0")
                .contains(
                        "flowscale_controller_decisions_total{job=\"wc\",outcome=\"recommended\",reason=\"none\"} 1.0")
                .contains(
                        "flowscale_controller_decisions_total{job=\"wc\",outcome=\"within_dead_band\",reason=\"none\"} 1.0");
    }

    @Test
    void aJobsFirstDecisionRegistersItsRescaleMetersAtZeroSoTheFirstRescaleIsAnIncrease() {
        metrics.onDecision(
                ScalingDecision.blocked(NOW, "wc", BlockReason.METRICS_MISSING, "no window"));

        assertThat(registry.scrape())
                .contains("flowscale_controller_rescale_downtime_seconds_count{job=\"wc\"} 0")
                .contains(
                        "flowscale_controller_rescales_total{job=\"wc\",result=\"succeeded\"} 0.0")
                .contains("flowscale_controller_rescales_total{job=\"wc\",result=\"failed\"} 0.0");
    }

    @Test
    void aRescalesDowntimeIsRecordedInAHistogram() {
        metrics.rescaleFinished("wc", Duration.ofSeconds(12), true);

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("flowscale_controller_rescale_downtime_seconds_count{job=\"wc\"} 1")
                .contains("flowscale_controller_rescale_downtime_seconds_sum{job=\"wc\"} 12.0")
                .containsPattern(
                        "flowscale_controller_rescale_downtime_seconds_bucket\\{job=\"wc\",le=\"[0-9.]+\"\\} 1");
    }

    @Test
    void eachScalingDecisionIsASeriesValuedWithItsTimeAndLabelledWithWhatChangedAndWhy() {
        metrics.onDecision(
                ScalingDecision.of(
                        NOW,
                        "wc",
                        List.of("DS2 optimum"),
                        List.of(
                                new OperatorDecision(
                                        "src", 1, 1, 1, 1200, 5000, 0.24, 0, List.of()),
                                new OperatorDecision(
                                        "count",
                                        2,
                                        3,
                                        3,
                                        1200,
                                        400,
                                        1.0,
                                        0,
                                        List.of("needs 3.0 instances")))));
        metrics.onDecision(
                ScalingDecision.of(
                        NOW.plusSeconds(30),
                        "wc",
                        List.of(),
                        List.of(
                                new OperatorDecision(
                                        "count", 3, 3, 3, 1200, 400, 1.0, 0, List.of()))));

        assertThat(registry.scrape())
                .contains(
                        "flowscale_controller_decision_timestamp_seconds{change=\"count 2→3\","
                                + "decided_at=\"2026-01-01T00:00:00Z\",job=\"wc\",outcome=\"scaled\","
                                + "reasons=\"DS2 optimum | count: needs 3.0 instances\"} 1.7672256E9")
                .doesNotContain("2026-01-01T00:00:30Z");
    }

    @Test
    void onlyTheLastDecisionsOfAJobAreKeptAsSeries() {
        for (int i = 0; i < ControllerMetrics.DECISIONS_KEPT + 5; i++) {
            metrics.onDecision(
                    ScalingDecision.of(
                            NOW.plusSeconds(60L * i),
                            "wc",
                            List.of(),
                            List.of(
                                    new OperatorDecision(
                                            "count", 2 + i, 3 + i, 3 + i, 1200, 400, 1.0, 0,
                                            List.of()))));
        }
        List<String> series =
                registry.scrape()
                        .lines()
                        .filter(
                                l ->
                                        l.startsWith(
                                                "flowscale_controller_decision_timestamp_seconds{"))
                        .toList();
        assertThat(series).hasSize(ControllerMetrics.DECISIONS_KEPT);
        assertThat(series)
                .noneMatch(l -> l.contains("change=\"count 2→3\""))
                .anyMatch(l -> l.contains("change=\"count 26→27\""));
    }

    @Test
    void rescalesAreCountedByResultAndAFixedJobLabelReplacesTheRunnersJobName() {
        ControllerMetrics labelled = new ControllerMetrics(registry, Mode.AUTO, "team-a/orders");
        labelled.rescaleFinished("wordcount", Duration.ofSeconds(5), false);
        labelled.rescaleFinished("wordcount", Duration.ofSeconds(2), true);
        labelled.onDecision(
                ScalingDecision.of(
                        NOW,
                        "wordcount",
                        List.of(),
                        List.of(
                                new OperatorDecision(
                                        "count", 2, 2, 2, 100, 400, 0.1, 0, List.of()))));

        assertThat(registry.scrape())
                .contains(
                        "flowscale_controller_rescales_total{job=\"team-a/orders\",result=\"failed\"} 1.0")
                .contains(
                        "flowscale_controller_rescales_total{job=\"team-a/orders\",result=\"succeeded\"} 1.0")
                .contains(
                        "flowscale_controller_parallelism{job=\"team-a/orders\",operator=\"count\"} 2.0")
                .doesNotContain("job=\"wordcount\"");
    }

    @Test
    void forgettingAJobRemovesItsSeriesAndOnlyIts() {
        metrics.onDecision(
                ScalingDecision.of(
                        NOW,
                        "wc",
                        List.of(),
                        List.of(
                                new OperatorDecision(
                                        "count", 2, 3, 3, 1200, 400, 1.0, 0, List.of()))));
        metrics.onDecision(
                ScalingDecision.of(
                        NOW,
                        "other",
                        List.of(),
                        List.of(
                                new OperatorDecision(
                                        "count", 2, 2, 2, 100, 400, 0.1, 0, List.of()))));
        metrics.rescaleFinished("wc", Duration.ofSeconds(1), true);
        // The Kubernetes operator's reconciler records this one; a loop restart must not erase it.
        Timer.builder(MetricName.CONTROLLER_RESCALE_PATH_DOWNTIME.micrometer())
                .tags("job", "wc", "path", "in-place", "result", "succeeded")
                .register(registry)
                .record(Duration.ofSeconds(2));

        metrics.forget("wc");

        assertThat(registry.scrape())
                .doesNotContain("flowscale_controller_parallelism{job=\"wc\"")
                .doesNotContain("flowscale_controller_rescales_total{job=\"wc\"")
                .doesNotContain("flowscale_controller_rescale_downtime_seconds_count{job=\"wc\"")
                .contains(
                        "flowscale_controller_rescale_path_downtime_seconds_count{job=\"wc\","
                                + "path=\"in-place\",result=\"succeeded\"} 1")
                .contains("flowscale_controller_parallelism{job=\"other\",operator=\"count\"} 2.0");
        metrics.onDecision(
                ScalingDecision.of(
                        NOW,
                        "wc",
                        List.of(),
                        List.of(
                                new OperatorDecision(
                                        "count", 3, 3, 3, 1200, 400, 1.0, 0, List.of()))));
        assertThat(registry.scrape())
                .as("a forgotten job's series come back with its next decision")
                .contains("flowscale_controller_parallelism{job=\"wc\",operator=\"count\"} 3.0");
    }
}
