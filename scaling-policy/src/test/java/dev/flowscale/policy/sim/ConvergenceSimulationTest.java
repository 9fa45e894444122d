package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DS2 in the loop on the paper's topologies with linear scaling: from any initial parallelism it
 * reaches the hand-computed optimum in at most three parallelism changes and never reverses.
 */
class ConvergenceSimulationTest {

    private static final List<Function<RateProfile, Scenario>> TOPOLOGIES =
            List.of(
                    PaperTopologies::wordCount,
                    PaperTopologies::filterMapChain,
                    PaperTopologies::twoInputJoin,
                    PaperTopologies::windowedAggregation);

    static Stream<Arguments> topologiesAndInitialParallelism() {
        List<Arguments> all = new ArrayList<>();
        for (Function<RateProfile, Scenario> topology : TOPOLOGIES) {
            for (int initial : new int[] {1, 4, 8, 16, 28}) {
                Scenario s = topology.apply(RateProfile.constant(1)).startingAt(initial);
                all.add(Arguments.of(s.name(), initial, s));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} from parallelism {1}")
    @MethodSource("topologiesAndInitialParallelism")
    void reachesTheOptimumInAtMostThreeDecisionsWithoutReversing(
            String name, int initial, Scenario scenario) {
        Trajectory t =
                Simulation.ds2(scenario, PolicyConfig.exactDs2(), SimulationSettings.defaults())
                        .run(Duration.ofMinutes(5));

        assertThat(t.finalParallelism()).isEqualTo(PaperTopologies.optimum(name, 1.0));
        assertThat(t.scaleDecisions()).hasSizeBetween(initial == 1 || initial == 28 ? 1 : 0, 3);
        scenario.operators()
                .forEach(
                        op ->
                                assertThat(Moves.reversals(t.parallelismHistory(op.id())))
                                        .as(op.id())
                                        .isZero());
    }
}
