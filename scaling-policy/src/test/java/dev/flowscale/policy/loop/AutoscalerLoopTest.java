package dev.flowscale.policy.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsProvider;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.sim.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class AutoscalerLoopTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final JobTopology JOB =
            new JobTopology(
                    "job",
                    List.of(OperatorSpec.of("src", 1), OperatorSpec.of("op", 2)),
                    List.of(new Edge("src", "op")));

    private final ManualClock clock = new ManualClock(T0);
    private final List<ScalingDecision> published = new ArrayList<>();
    private final List<Throwable> errors = new ArrayList<>();
    private final TestingRealizer realizer = new TestingRealizer();
    private Optional<MetricsWindow> window = Optional.empty();

    /** Metrics that make DS2 ask for 10 instances of "op". */
    private void metricsAskingForTen() {
        OperatorMetrics src =
                OperatorMetrics.of("src", 1, 5000, 5000, 1000, 1000).withSource(1000, 0.0);
        OperatorMetrics op = OperatorMetrics.of("op", 2, 200, 200, 200, 200);
        window =
                Optional.of(
                        MetricsWindow.of(
                                clock.instant().minusSeconds(10),
                                clock.instant(),
                                List.of(src, op)));
    }

    private AutoscalerLoop autoscaler(Mode mode, ScalingPolicy policy) {
        MetricsProvider provider =
                new MetricsProvider() {
                    @Override
                    public JobTopology topology() {
                        return JOB;
                    }

                    @Override
                    public Optional<MetricsWindow> currentWindow() {
                        return window;
                    }
                };
        return new AutoscalerLoop(
                new AutoscalerConfig(mode, Duration.ofSeconds(10), 3),
                policy,
                provider,
                realizer,
                List.of(published::add),
                clock,
                errors::add);
    }

    private AutoscalerLoop ds2(Mode mode) {
        return autoscaler(mode, new Ds2Policy(PolicyConfig.exactDs2(), clock));
    }

    @Test
    void decidesOncePerPolicyInterval() {
        AutoscalerLoop loop = ds2(Mode.RECOMMEND);

        assertThat(loop.tick()).isPresent();
        clock.advance(Duration.ofSeconds(9));
        assertThat(loop.tick()).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        assertThat(loop.tick()).isPresent();
    }

    @Test
    void reportsMissingMetricsBeforeTheFirstWindow() {
        ScalingDecision d = ds2(Mode.AUTO).tick().orElseThrow();

        assertThat(d.blockReason()).contains(BlockReason.METRICS_MISSING);
        assertThat(published).containsExactly(d);
    }

    @Test
    void onlyPublishesInRecommendMode() {
        metricsAskingForTen();

        ScalingDecision d = ds2(Mode.RECOMMEND).tick().orElseThrow();

        assertThat(d.isScale()).isTrue();
        assertThat(published).containsExactly(d);
        assertThat(realizer.realized).isEmpty();
    }

    @Test
    void handsScaleDecisionsToTheRealizerInAutoModeAndRecordsTheRescaleDuration() {
        metricsAskingForTen();
        AutoscalerLoop loop = ds2(Mode.AUTO);

        loop.tick();
        clock.advance(Duration.ofSeconds(42));
        realizer.pending.complete(null);

        assertThat(realizer.realized)
                .singleElement()
                .satisfies(d -> assertThat(d.newParallelism()).containsEntry("op", 10));
        assertThat(loop.rescaleDurations()).containsExactly(Duration.ofSeconds(42));
        assertThat(loop.history().lastRescale().orElseThrow().failed()).isFalse();
    }

    @Test
    void asksThePolicyWhileARescaleIsInProgressAndItBlocks() {
        metricsAskingForTen();
        AutoscalerLoop loop = ds2(Mode.AUTO);
        loop.tick();
        clock.advance(Duration.ofSeconds(10));

        ScalingDecision d = loop.tick().orElseThrow();

        assertThat(d.blockReason()).contains(BlockReason.RESCALE_IN_PROGRESS);
        assertThat(realizer.realized).hasSize(1);
    }

    @Test
    void recordsAFailedRescaleAndReportsTheError() {
        metricsAskingForTen();
        AutoscalerLoop loop = ds2(Mode.AUTO);
        loop.tick();

        realizer.pending.completeExceptionally(new IllegalStateException("savepoint failed"));

        assertThat(loop.history().lastRescale().orElseThrow().failed()).isTrue();
        assertThat(errors)
                .singleElement()
                .extracting(Throwable::getMessage)
                .isEqualTo("savepoint failed");
        assertThat(loop.errorCount()).isEqualTo(1);
    }

    @Test
    void keepsPublishingWhenAListenerThrows() {
        metricsAskingForTen();
        AutoscalerLoop loop =
                new AutoscalerLoop(
                        AutoscalerConfig.of(Mode.RECOMMEND, Duration.ofSeconds(10)),
                        new Ds2Policy(PolicyConfig.exactDs2(), clock),
                        new FixedProvider(),
                        realizer,
                        List.of(
                                d -> {
                                    throw new IllegalStateException("listener broke");
                                },
                                published::add),
                        clock,
                        errors::add);

        loop.tick();

        assertThat(published).hasSize(1);
        assertThat(errors).hasSize(1);
    }

    @Test
    void survivesAPolicyThatThrows() {
        metricsAskingForTen();
        AutoscalerLoop loop =
                autoscaler(
                        Mode.AUTO,
                        (t, w, h) -> {
                            throw new IllegalStateException("bug");
                        });

        assertThat(loop.tick()).isEmpty();
        assertThat(loop.errorCount()).isEqualTo(1);
    }

    @Test
    void boundsItsDecisionHistory() {
        AutoscalerLoop loop = ds2(Mode.RECOMMEND);
        for (int i = 0; i < 5; i++) {
            loop.tick();
            clock.advance(Duration.ofSeconds(10));
        }

        assertThat(loop.history().decisions()).hasSize(3);
        assertThat(loop.history().decisions().get(0).time()).isEqualTo(T0.plusSeconds(20));
    }

    @Test
    void explainsEveryOperatorInTheDecisionText() {
        metricsAskingForTen();
        ScalingDecision d = ds2(Mode.RECOMMEND).tick().orElseThrow();

        assertThat(d.explain()).contains("op: 2 -> 10").contains("DS2: target 1000.0 rec/s");
        assertThat(d.operators().values())
                .extracting(OperatorDecision::operatorId)
                .containsExactly("src", "op");
    }

    private final class FixedProvider implements MetricsProvider {
        @Override
        public JobTopology topology() {
            return JOB;
        }

        @Override
        public Optional<MetricsWindow> currentWindow() {
            return window;
        }
    }

    /** A realizer whose rescale completes when the test says so. */
    private static final class TestingRealizer implements ScalingRealizer {
        final List<ScalingDecision> realized = new ArrayList<>();
        final CompletableFuture<Void> pending = new CompletableFuture<>();

        @Override
        public CompletionStage<Void> realize(ScalingDecision decision) {
            realized.add(decision);
            return pending;
        }
    }
}
