package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.sim.DataflowModel;
import dev.flowscale.policy.sim.ManualClock;
import dev.flowscale.policy.sim.RateProfile;
import dev.flowscale.policy.sim.Scenario;
import dev.flowscale.policy.sim.SimOperator;
import dev.flowscale.policy.sim.SimulatedMetrics;
import dev.flowscale.policy.sim.Simulation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The models fed with windows of the dataflow simulator (no noise), as the loop would feed them.
 */
class LearnedModelsOnTheSimulatorTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private final ManualClock clock = new ManualClock(Simulation.EPOCH);

    /** 30 s of source (offering {@code rate}) -> op at parallelism p; the last 10 s window. */
    private MetricsWindow windowAt(SimOperator op, double rate, int p) {
        DataflowModel model = new DataflowModel(chain(op, rate, p), clock, 2, 0, 1);
        for (int i = 0; i < 30; i++) {
            clock.advance(SECOND);
            model.step(SECOND);
        }
        return new SimulatedMetrics(model, SECOND, Duration.ofSeconds(10))
                .currentWindow()
                .orElseThrow();
    }

    private static Scenario chain(SimOperator op, double rate, int p) {
        return new Scenario(
                "chain",
                List.of(SimOperator.source("src", 100_000, RateProfile.constant(rate)), op),
                List.of(new Edge("src", "op")),
                Map.of("src", 1, "op", p));
    }

    private ScalabilityHistory learn(SimOperator op, double rate, int... parallelisms) {
        ScalabilityHistory h = ScalabilityHistory.empty();
        for (int p : parallelisms) {
            h = h.record(windowAt(op, rate, p));
        }
        return h;
    }

    @Test
    void learnsSublinearScalingAndSizesAboveLinearDs2() {
        // Capacity 100·p^0.8, measured while saturated at 1, 2 and 4; 500 rec/s needs 100·p^0.8 ≥
        // 500:
        // 100·7^0.8 = 474.3, 100·8^0.8 = 527.8, so 8 (linear DS2 from p = 4, 303.1/4 per instance,
        // says 7).
        SimOperator op = SimOperator.operator("op", 100, 1).withAlpha(0.8);

        ScalabilityModel m = ScalabilityFit.fit(learn(op, 500, 1, 2, 4).of("op"));

        assertThat(m.alpha()).isCloseTo(0.8, offset(1e-6));
        assertThat(m.smallestParallelismFor(500, 128)).hasValue(8);
    }

    @Test
    void holdsAnOperatorWhoseScaleUpWasEatenByOverhead() {
        // 100·p / (1 + 0.3·(p − 1)): 400/1.9 = 210.5 at 4, 800/3.1 = 258.1 at 8: +23 % where +100 %
        // was expected.
        SimOperator op = SimOperator.operator("op", 100, 1).withOverhead(0.3);

        IneffectiveScaleUp.Verdict v =
                IneffectiveScaleUp.detect(
                                "op",
                                learn(op, 1000, 4, 8),
                                IneffectiveScaleUp.DEFAULT_MIN_GAIN_SHARE)
                        .orElseThrow();

        assertThat(v.reason())
                .isEqualTo(
                        "op: 4 -> 8 raised capacity 211 -> 258 rec/s (+23 %, expected +100 %);"
                                + " more instances will not help; holding at 4");
    }

    @Test
    void sizesASkewedOperatorForItsHotInstance() {
        // Skew 0.3 at 4: the hot instance takes 0.475 of the input and saturates at 100 rec/s (the
        // operator
        // sustains 210.5), the others take 0.175 each (busy 37 %). s = (0.475·4 − 1)/3 = 0.3; 250
        // rec/s needs
        // 75 + 175·⌈128/q⌉/128 ≤ 100, ⌈128/q⌉ ≤ 18: q = 8 (7 leaves one instance 19 key groups, 101
        // rec/s).
        SimOperator op = SimOperator.operator("op", 100, 1).withSkew(0.3);

        HotKeyAnalysis.Assessment a =
                HotKeyAnalysis.assess(windowAt(op, 250, 4).metrics("op").orElseThrow(), 128, 250, 1)
                        .orElseThrow();

        assertThat(a.hotSpotShare()).isCloseTo(0.3, offset(1e-6));
        assertThat(a.hotKeyGroups()).isEqualTo(new KeyGroupRange(0, 32));
        assertThat(a.requiredParallelism()).hasValue(8);
    }
}
