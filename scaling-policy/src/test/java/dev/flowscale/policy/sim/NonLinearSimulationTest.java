package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sub-linear scaling and key skew: slower than linear, but DS2 still settles without reversing. */
class NonLinearSimulationTest {

    private static Scenario chain(SimOperator op) {
        return Scenario.of(
                "chain",
                List.of(SimOperator.source("src", 20_000, RateProfile.constant(2500)), op),
                List.of(new Edge("src", "op")),
                1);
    }

    @Test
    void convergesMonotonicallyWithAlphaBelowOne() {
        Scenario s = chain(SimOperator.operator("op", 100, 0).withAlpha(0.8));

        Trajectory t =
                Simulation.ds2(s, PolicyConfig.exactDs2(), SimulationSettings.defaults())
                        .run(Duration.ofMinutes(10));

        // 100 · p^0.8 >= 2500  <=>  p >= 25^(1/0.8) = 55.9
        assertThat(t.finalParallelism()).containsEntry("op", 56);
        assertThat(Moves.reversals(t.parallelismHistory("op"))).isZero();
    }

    @Test
    void sizesForTheHotInstanceWithSkewCorrection() {
        Scenario s = chain(SimOperator.operator("op", 1000, 0).withSkew(0.3));
        PolicyConfig config = PolicyConfig.builder().skewCorrection(true).build();

        Trajectory t =
                Simulation.ds2(s, config, SimulationSettings.defaults())
                        .run(Duration.ofMinutes(10));

        // hot instance, which owns ⌈128/p⌉ of the 128 key groups: 2500 · (0.3 + 0.7 · ⌈128/p⌉/128)
        // <= 1000
        // p = 7 owns 19 (1009.8 rec/s), p = 8 owns 16 (968.8 rec/s)
        assertThat(t.finalParallelism()).containsEntry("op", 8);
        assertThat(t.scaleDecisions()).hasSizeLessThanOrEqualTo(3);
        assertThat(Moves.reversals(t.parallelismHistory("op"))).isZero();
    }

    @Test
    void capsAnOperatorWhoseHotKeyNoInstanceCanCarryInsteadOfRunningAwayToItsBound() {
        // The hot key alone brings 0.5 · 2500 = 1250 rec/s to one instance of capacity 1000.
        Scenario s = chain(SimOperator.operator("op", 1000, 0).withSkew(0.5));
        PolicyConfig config = PolicyConfig.builder().skewCorrection(true).jobBounds(1, 128).build();

        Trajectory t =
                Simulation.ds2(s, config, SimulationSettings.defaults())
                        .run(Duration.ofMinutes(30));

        // The most any p carries is 1000 / (0.5 + 0.5/128) = 1984.5 rec/s; within 5 % of it:
        // ⌈128/p⌉ <= 7, p = 19.
        assertThat(t.finalParallelism()).containsEntry("op", 19);
        assertThat(t.scaleDecisions()).hasSize(1);
        assertThat(t.decisions().get(t.decisions().size() - 1).operators().get("op").reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                        "more instances will not help 'op': hot key groups [0] hold 50 %"));
    }

    @Test
    void plainDs2CannotSeeSkew() {
        Scenario s = chain(SimOperator.operator("op", 1000, 0).withSkew(0.3));

        Trajectory t =
                Simulation.ds2(s, PolicyConfig.exactDs2(), SimulationSettings.defaults())
                        .run(Duration.ofMinutes(10));

        assertThat(t.finalParallelism()).containsEntry("op", 3);
    }
}
