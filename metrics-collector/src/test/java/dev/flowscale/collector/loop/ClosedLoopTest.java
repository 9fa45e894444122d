package dev.flowscale.collector.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.collector.export.ControllerMetrics;
import dev.flowscale.collector.source.InProcessMetricsSource;
import dev.flowscale.collector.source.InProcessMetricsSourceTest;
import dev.flowscale.collector.window.WindowSettings;
import dev.flowscale.collector.window.WindowedMetricsProvider;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.Autoscaler;
import dev.flowscale.testsupport.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A real job, the windowed provider, Ds2Policy and the autoscaler in recommend mode, exported. */
class ClosedLoopTest {

    @Test
    void aRunningJobYieldsAnUnblockedDecisionAndTheControllerMetricsShowIt() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Clock clock = Clock.systemUTC();
        ControllerMetrics exported = new ControllerMetrics(registry, Mode.RECOMMEND, clock);
        try (RunningJob job =
                InProcessMetricsSourceTest.chain("loop").start(JobConfig.defaults())) {
            WindowedMetricsProvider provider =
                    new WindowedMetricsProvider(
                            new InProcessMetricsSource(() -> job, clock),
                            new WindowSettings(Duration.ofMillis(500), Duration.ofMillis(200)),
                            List.of(exported));
            Autoscaler autoscaler =
                    new Autoscaler(
                            AutoscalerConfig.of(Mode.RECOMMEND, Duration.ofMillis(1)),
                            new Ds2Policy(PolicyConfig.defaults(), clock),
                            provider,
                            decision -> CompletableFuture.completedFuture(null),
                            List.of(exported),
                            clock,
                            Throwable::printStackTrace);
            ScalingDecision decision = decideOnceComplete(provider, autoscaler);

            assertThat(decision.outcome()).as(decision.explain()).isNotEqualTo(Outcome.BLOCKED);
            assertThat(decision.operators()).containsOnlyKeys("source", "map1", "sink");
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

    private static ScalingDecision decideOnceComplete(
            WindowedMetricsProvider provider, Autoscaler autoscaler) {
        Await.until(
                Duration.ofSeconds(20),
                "a complete window",
                provider::poll,
                window -> window.complete(),
                window -> "status " + provider.status());
        return autoscaler.tick().orElseThrow();
    }
}
