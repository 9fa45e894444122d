package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DS2 paper's word count: 1M sentences/min, flatMap 100k sentences/min, count 1M words/min. */
class WordCountSimulationTest {

    private static final double PER_MINUTE = 1 / 60.0;
    static final Scenario WORD_COUNT =
            Scenario.of(
                    "wordcount",
                    List.of(
                            SimOperator.source(
                                    "source",
                                    100_000_000 * PER_MINUTE,
                                    RateProfile.constant(1_000_000 * PER_MINUTE)),
                            SimOperator.operator("flatMap", 100_000 * PER_MINUTE, 20),
                            SimOperator.operator("count", 1_000_000 * PER_MINUTE, 0)),
                    List.of(new Edge("source", "flatMap"), new Edge("flatMap", "count")),
                    1);

    @Test
    void reachesTenFlatMapAndTwentyCountInOneDecisionWithoutCatchUp() {
        Trajectory t =
                Simulation.ds2(WORD_COUNT, PolicyConfig.exactDs2(), SimulationSettings.defaults())
                        .run(Duration.ofMinutes(10));

        assertThat(t.scaleDecisions()).hasSize(1);
        assertThat(t.finalParallelism()).containsEntry("flatMap", 10).containsEntry("count", 20);
    }

    @Test
    void drainsTheBacklogWithinTheCatchUpDurationAndSettlesWithoutOscillating() {
        Duration catchUp = Duration.ofMinutes(10);
        PolicyConfig config = PolicyConfig.builder().catchUpDuration(catchUp).build();

        Trajectory t =
                Simulation.ds2(WORD_COUNT, config, SimulationSettings.defaults())
                        .run(Duration.ofMinutes(40));

        ScalingDecision first = t.scaleDecisions().get(0);
        long firstSecond = Duration.between(Simulation.EPOCH, first.time()).toSeconds();
        assertThat(t.drainedAt(firstSecond, 1.0))
                .isBetween(firstSecond, firstSecond + catchUp.toSeconds());
        assertThat(t.finalParallelism().get("flatMap")).isBetween(10, 11);
        assertThat(t.finalParallelism().get("count")).isBetween(20, 21);
        for (String op : List.of("flatMap", "count")) {
            // catch-up overshoots once and returns when drained: up, then at most one step down
            List<Integer> history = t.parallelismHistory(op);
            assertThat(Moves.of(history)).as(op + " " + history).isIn(List.of(1), List.of(1, -1));
        }
        assertThat(t.scaleDecisionsBetween(20 * 60, 40 * 60))
                .as("settled: no change in the second 20 minutes")
                .isEmpty();
        assertThat(first.operators().get("source").catchUpShare()).isPositive();
    }
}
