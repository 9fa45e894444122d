package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Starting at the optimum, the load triples at 10 min and drops to half the original at 20 min;
 * with production guards (60 s scale-down delay, 10 s warm-up) DS2 follows each step within three
 * decisions and never reverses within a phase.
 */
class StepChangeSimulationTest {

    private static final RateProfile STEPS = RateProfile.constant(1).then(600, 3).then(1200, 0.5);
    private static final PolicyConfig GUARDED =
            PolicyConfig.builder()
                    .scaleDownDelay(Duration.ofSeconds(60))
                    .warmUp(Duration.ofSeconds(10))
                    .build();

    static Stream<Scenario> topologies() {
        return Stream.<Function<RateProfile, Scenario>>of(
                        PaperTopologies::wordCount,
                        PaperTopologies::filterMapChain,
                        PaperTopologies::twoInputJoin,
                        PaperTopologies::windowedAggregation)
                .map(f -> f.apply(STEPS))
                .map(
                        s ->
                                new Scenario(
                                        s.name(),
                                        s.operators(),
                                        s.edges(),
                                        PaperTopologies.optimum(s.name(), 1.0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("topologies")
    void followsAStepUpAndAStepDownWithinThreeDecisionsEach(Scenario scenario) {
        Trajectory t =
                Simulation.ds2(scenario, GUARDED, SimulationSettings.defaults())
                        .run(Duration.ofMinutes(30));

        assertThat(t.scaleDecisionsBetween(0, 600)).isEmpty();
        assertPhase(t, scenario, 600, 1200, 3.0);
        assertPhase(t, scenario, 1200, 1800, 0.5);
    }

    private static void assertPhase(
            Trajectory t, Scenario scenario, long from, long to, double factor) {
        assertThat(t.scaleDecisionsBetween(from, to)).hasSizeBetween(1, 3);
        assertThat(t.parallelismAt(to)).isEqualTo(PaperTopologies.optimum(scenario.name(), factor));
        for (String op : scenario.topology().topologicalOrder()) {
            List<Integer> history = t.parallelismHistory(op, from, to + 1);
            assertThat(Moves.reversals(history)).as(op + " " + history).isZero();
        }
    }
}
