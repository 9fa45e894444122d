package dev.flowscale.autoscaler.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.testing.InMemoryHistoryStore;
import dev.flowscale.autoscaler.testing.Samples;
import dev.flowscale.autoscaler.testing.TestingMetricsSource;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RecordingRealizer;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.sim.ManualClock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * A job's autoscaler counts each rescale once in its metrics, with the duration its loop's history
 * holds: the realizer's stage, or the executor's measured downtime that a {@link RecordingRealizer}
 * reads; a rescale an earlier loop counted is not counted again.
 */
class JobAutoscalerRescaleMetricsTest {
    static final Duration INTERVAL = Duration.ofSeconds(2);
    static final String COUNT =
            "flowscale_controller_rescale_downtime_seconds_count{job=\"jobs/wc\"}";
    static final String SUM = "flowscale_controller_rescale_downtime_seconds_sum{job=\"jobs/wc\"}";
    final ManualClock clock = new ManualClock(Samples.T0);
    final List<Throwable> errors = new ArrayList<>();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final InMemoryHistoryStore store = new InMemoryHistoryStore();

    @Test
    void aRecordedRescaleIsCountedOnceWithTheExecutorsMeasuredDowntime() {
        Recording recording = new Recording();
        JobAutoscaler autoscaler = autoscaler(recording);
        RescaleRecord started = decideToScale(autoscaler);
        assertThat(registry.scrape()).contains(COUNT + " 0");

        Instant end = clock.instant().plusSeconds(20);
        recording.end =
                Optional.of(
                        new RescaleRecord(
                                end.minusMillis(1500),
                                Optional.of(end),
                                started.target(),
                                false,
                                "in-place"));
        autoscaler.tick();
        clock.advance(Duration.ofSeconds(1));
        autoscaler.tick();

        assertThat(registry.scrape()).contains(COUNT + " 1").contains(SUM + " 1.5");
        assertThat(errors).isEmpty();

        JobAutoscaler next = autoscaler(new Recording());
        next.tick();
        assertThat(registry.scrape())
                .as("the next loop of the job does not count it again")
                .contains(COUNT + " 1");
    }

    @Test
    void aRescaleWhoseStageEndsItIsCountedWithTheStagesSpan() {
        CompletableFuture<Void> stage = new CompletableFuture<>();
        JobAutoscaler autoscaler = autoscaler(decision -> stage);
        decideToScale(autoscaler);

        clock.advance(Duration.ofSeconds(12));
        stage.completeExceptionally(new IllegalStateException("the runner never came up"));
        autoscaler.tick();

        assertThat(registry.scrape())
                .contains(COUNT + " 1")
                .contains(SUM + " 12.0")
                .contains(
                        "flowscale_controller_rescales_total{job=\"jobs/wc\",result=\"failed\"} 1.0");
    }

    /** Ticks until the loop decides to scale; returns the rescale it started. */
    private RescaleRecord decideToScale(JobAutoscaler autoscaler) {
        for (int i = 0; i < 5; i++) {
            Optional<ScalingDecision> decided = autoscaler.tick();
            if (decided.filter(ScalingDecision::isScale).isPresent()) {
                return autoscaler.loop().history().lastRescale().orElseThrow();
            }
            clock.advance(Duration.ofSeconds(1));
        }
        throw new AssertionError("no scale decision: " + autoscaler.loop().history().decisions());
    }

    /** Sources emit 600/s; each map instance processes 150/s while always busy: it needs 4. */
    private TestingMetricsSource overloaded() {
        TestingMetricsSource source = new TestingMetricsSource();
        for (int i = 0; i < 10; i++) {
            source.then(
                    Samples.at(i)
                            .source(600.0 * i, 0.1 * i, i, 0)
                            .map(0, 150.0 * i, 150.0 * i, 1.0 * i, i)
                            .map(1, 150.0 * i, 150.0 * i, 1.0 * i, i)
                            .build());
        }
        return source;
    }

    private JobAutoscaler autoscaler(ScalingRealizer realizer) {
        return new JobAutoscaler(
                new JobAutoscaler.Settings(
                        AutoscalerConfig.of(Mode.AUTO, INTERVAL),
                        PolicyConfig.exactDs2(),
                        INTERVAL),
                p -> p,
                overloaded(),
                realizer,
                List.of(),
                new JobAutoscaler.Reporting(registry, "jobs/wc", clock, errors::add),
                store);
    }

    /** Records targets; the executor's record of the end is what the test sets. */
    private static final class Recording implements RecordingRealizer {
        Optional<RescaleRecord> end = Optional.empty();

        @Override
        public CompletionStage<Void> realize(ScalingDecision decision) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public Optional<RescaleRecord> outcome(RescaleRecord started) {
            return end;
        }
    }
}
