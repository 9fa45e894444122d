package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.testsupport.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A real job under the one {@link JobAutoscaler} assembly (in-process source, window, Ds2Policy,
 * the loop in recommend mode), exported.
 */
class ClosedLoopTest {
    private static final JobAutoscaler.Settings SETTINGS =
            new JobAutoscaler.Settings(
                    AutoscalerConfig.of(Mode.RECOMMEND, Duration.ofMillis(1)),
                    PolicyConfig.builder().warmUp(Duration.ofMillis(200)).build(),
                    Duration.ofMillis(500));

    @Test
    void aRunningJobYieldsAnUnblockedDecisionAndTheControllerMetricsShowIt() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (RunningJob job =
                InProcessMetricsSourceTest.chain("loop").start(JobConfig.defaults())) {
            JobAutoscaler autoscaler = autoscaler(job, registry, null);
            ScalingDecision decision = decideOnceComplete(autoscaler);

            assertThat(decision.outcome()).as(decision.explain()).isNotEqualTo(Outcome.BLOCKED);
            assertThat(decision.operators()).containsOnlyKeys("source", "map1", "sink");
            assertThat(autoscaler.loop().history().decisions()).contains(decision);
        }
        assertThat(registry.scrape())
                .contains(
                        "flowscale_controller_true_processing_rate_records_per_second{job=\"loop\",operator=\"map1\"}")
                .contains(
                        "flowscale_controller_source_backlog_records{job=\"loop\",operator=\"source\"}")
                .contains("flowscale_controller_parallelism{job=\"loop\",operator=\"map1\"} 2.0")
                .containsPattern(
                        "flowscale_controller_decisions_total\\{job=\"loop\",outcome=\"(recommended|no_change)\"");
    }

    @Test
    void closingAnAutoscalerWithAJobLabelRemovesThatJobsSeriesFromTheScrape() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (RunningJob job =
                InProcessMetricsSourceTest.chain("loop").start(JobConfig.defaults())) {
            JobAutoscaler autoscaler = autoscaler(job, registry, "ns/loop");
            decideOnceComplete(autoscaler);
            assertThat(registry.scrape()).contains("job=\"ns/loop\"");

            autoscaler.close();

            assertThat(registry.scrape()).doesNotContain("job=\"ns/loop\"");
        }
    }

    private static JobAutoscaler autoscaler(
            RunningJob job, PrometheusMeterRegistry registry, String label) {
        Clock clock = Clock.systemUTC();
        return new JobAutoscaler(
                SETTINGS,
                new InProcessMetricsSource(() -> job, clock),
                decision -> CompletableFuture.completedFuture(null),
                List.of(),
                new JobAutoscaler.Reporting(registry, label, clock, Throwable::printStackTrace));
    }

    /** Ticks until a decision is made on a complete window (the first ones have none yet). */
    private static ScalingDecision decideOnceComplete(JobAutoscaler autoscaler) {
        return Await.until(
                        Duration.ofSeconds(20),
                        "a decision on a complete metrics window",
                        autoscaler::tick,
                        decision ->
                                decision.isPresent()
                                        && !decision.get()
                                                .blockReason()
                                                .equals(Optional.of(BlockReason.METRICS_MISSING)))
                .orElseThrow();
    }
}
