package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Predictive mode on a constant load: the forecast is flat, so the predictive policy recommends
 * what the reactive one does and holds it: no recommendation of its own following the noise, no
 * scale-down delay restarted at every decision, the same configuration. Without noise, one
 * recommendation per operator; with the source's rate off by 10 % each second the reactive policy's
 * own recommendations, which the measured rates move across a rounding boundary, and nothing more.
 */
class FlatForecastTest {

    private static final Duration RUN = Duration.ofHours(2);

    @ParameterizedTest(name = "measurement noise {0}")
    @ValueSource(doubles = {0, 0.1})
    void aConstantLoadGetsOneRecommendationPerOperatorAndTheReactiveConfiguration(double noise) {
        Scenario constant = PaperTopologies.wordCount(offered(noise)).named("constant word count");
        Trajectory predictive = run(constant, true, 0);
        Trajectory reactive = run(constant, false, 0);

        for (String op : List.of("flatMap", "count")) {
            assertThat(recommendations(predictive, op))
                    .as(op)
                    .isEqualTo(recommendations(reactive, op))
                    .hasSize(noise == 0 ? 1 : recommendations(reactive, op).size());
        }
        assertThat(predictive.finalParallelism()).isEqualTo(reactive.finalParallelism());
        assertThat(predictive.scaleDecisions()).hasSameSizeAs(reactive.scaleDecisions());
        assertThat(delayed(predictive)).isEqualTo(delayed(reactive));
    }

    /**
     * With the operators' capacity off by {@code noise} at every step as well (the rate measured
     * per window moves with it), the predictive policy still recommends and does what the reactive
     * one does: the forecast of a constant source stays flat.
     */
    @ParameterizedTest(name = "capacity noise {0}")
    @ValueSource(doubles = {0.05, 0.1})
    void withNoisyCapacitiesPredictiveModeRecommendsWhatReactiveModeDoes(double noise) {
        Scenario constant = PaperTopologies.wordCount(offered(0.2)).named("constant word count");
        Trajectory predictive = run(constant, true, noise);
        Trajectory reactive = run(constant, false, noise);

        for (String op : List.of("flatMap", "count")) {
            assertThat(recommendations(predictive, op))
                    .as(op)
                    .isEqualTo(recommendations(reactive, op));
        }
        assertThat(predictive.finalParallelism()).isEqualTo(reactive.finalParallelism());
        assertThat(predictive.scaleDecisions()).hasSameSizeAs(reactive.scaleDecisions());
    }

    /**
     * A constant rate whose every second is off by the relative {@code noise} (a normal draw, from
     * a fixed seed), as records arrive at a real source.
     */
    private static RateProfile offered(double noise) {
        Random random = new Random(28);
        double[] factor = new double[(int) RUN.toSeconds() + 1];
        for (int i = 0; i < factor.length; i++) {
            factor[i] = Math.max(0, 1 + noise * random.nextGaussian());
        }
        return RateProfile.sampled(second -> factor[(int) second], RUN);
    }

    private static Trajectory run(Scenario scenario, boolean predictive, double capacityNoise) {
        PolicyConfig config = TableDefaults.policy().toBuilder().predictive(predictive).build();
        SimulationSettings settings =
                TableDefaults.settings(Duration.ofSeconds(30)).withNoise(capacityNoise, 28);
        return Simulation.ds2(scenario, config, settings).run(RUN);
    }

    private static long delayed(Trajectory t) {
        return t.decisions().stream()
                .filter(d -> d.isBlocked(BlockReason.SCALE_DOWN_DELAYED))
                .count();
    }

    /** The operator's recommended parallelisms after the first rescale has finished. */
    private static Set<Integer> recommendations(Trajectory t, String op) {
        Set<Integer> seen = new TreeSet<>();
        boolean settled = false;
        for (ScalingDecision d : t.decisions()) {
            OperatorDecision o = d.operators().get(op);
            if (settled && o != null && d.blockReason().isEmpty()) {
                seen.add(o.recommendedParallelism());
            }
            settled |= d.isScale();
        }
        return seen;
    }
}
