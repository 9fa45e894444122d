package dev.flowscale.policy.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsProvider;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.sim.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The loop records the input a rescale cost, as its realizer measured it, with the rescale. */
class AutoscalerInputCostTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final ManualClock clock = new ManualClock(T0);
    private final RewindingRealizer realizer = new RewindingRealizer();

    private Autoscaler loop() {
        JobTopology job =
                new JobTopology(
                        "job",
                        List.of(OperatorSpec.of("src", 1), OperatorSpec.of("op", 2)),
                        List.of(new Edge("src", "op")));
        MetricsWindow window =
                MetricsWindow.of(
                        T0.minusSeconds(10),
                        T0,
                        List.of(
                                OperatorMetrics.of("src", 1, 5000, 5000, 1000, 1000)
                                        .withSource(1000, 0),
                                OperatorMetrics.of("op", 2, 200, 200, 200, 200)));
        MetricsProvider metrics =
                new MetricsProvider() {
                    @Override
                    public JobTopology topology() {
                        return job;
                    }

                    @Override
                    public Optional<MetricsWindow> currentWindow() {
                        return Optional.of(window);
                    }
                };
        return new Autoscaler(
                new AutoscalerConfig(Mode.AUTO, Duration.ofSeconds(10), 3),
                new Ds2Policy(PolicyConfig.exactDs2(), clock),
                metrics,
                realizer,
                List.of(),
                clock,
                e -> {});
    }

    @Test
    void aFinishedRescaleCarriesTheInputItsRealizerMeasured() {
        Autoscaler loop = loop();
        loop.tick();
        clock.advance(Duration.ofSeconds(3));
        realizer.cost = Optional.of(Duration.ofSeconds(95));
        realizer.pending.complete(null);

        RescaleRecord r = loop.history().lastRescale().orElseThrow();
        assertThat(r.duration()).contains(Duration.ofSeconds(3));
        assertThat(r.inputCost()).contains(Duration.ofSeconds(95));
    }

    @Test
    void aFailedRescaleRecordsNoInputCost() {
        Autoscaler loop = loop();
        loop.tick();
        realizer.cost = Optional.of(Duration.ofSeconds(95));
        realizer.pending.completeExceptionally(new IllegalStateException("timed out"));

        assertThat(loop.history().lastRescale().orElseThrow().inputCost()).isEmpty();
    }

    /** A realizer whose rescale completes when the test says so, having re-read some input. */
    private static final class RewindingRealizer implements ScalingRealizer {
        final CompletableFuture<Void> pending = new CompletableFuture<>();
        Optional<Duration> cost = Optional.empty();

        @Override
        public CompletionStage<Void> realize(ScalingDecision decision) {
            return pending;
        }

        @Override
        public Optional<Duration> lastInputCost() {
            return cost;
        }
    }
}
