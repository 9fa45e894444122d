package dev.flowscale.policy.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.sim.ManualClock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The loop records the input a rescale cost, as its realizer measured it, with the rescale. */
class AutoscalerLoopInputCostTest {

    private final ManualClock clock = new ManualClock(OverloadedJob.T0);
    private final RewindingRealizer realizer = new RewindingRealizer();

    private AutoscalerLoop loop() {
        return OverloadedJob.loop(realizer, clock, e -> {});
    }

    @Test
    void aFinishedRescaleCarriesTheInputItsRealizerMeasured() {
        AutoscalerLoop loop = loop();
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
        AutoscalerLoop loop = loop();
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
