package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The comparison policy behaves like the Flink autoscaler it models. */
class FlinkStylePolicyTest {

    private static final FlinkStylePolicy.Settings NO_CATCH_UP = new FlinkStylePolicy.Settings(0.7, 0.3,
            Duration.ZERO, Duration.ZERO, Duration.ofHours(1), 0.6, Duration.ofMinutes(5));

    private static Trajectory run(double rate, int initial) {
        Scenario s = new Scenario("chain", List.of(SimOperator.source("src", 20_000, RateProfile.constant(rate)),
                SimOperator.operator("op", 100, 0)), List.of(new Edge("src", "op")), Map.of("src", 1, "op", initial));
        return new Simulation(s, clock -> new FlinkStylePolicy(NO_CATCH_UP, clock), SimulationSettings.defaults())
                .run(Duration.ofMinutes(10));
    }

    @Test
    void scalesUpToTheTargetUtilization() {
        // 700 / 0.7 = 1000 rec/s of capacity: 10 instances of 100
        assertThat(run(700, 1).finalParallelism()).containsEntry("op", 10);
    }

    @Test
    void staysWithinTheUtilizationBoundary() {
        // utilization 500 / 1000 = 0.5 lies within 0.7 ± 0.3
        Trajectory t = run(500, 10);

        assertThat(t.scaleDecisions()).isEmpty();
        assertThat(t.decisions()).anyMatch(d -> d.outcome() == Outcome.NO_CHANGE_WITHIN_DEAD_BAND);
    }

    @Test
    void delaysScaleDownsByTheScaleDownInterval() {
        Trajectory t = run(200, 10);

        assertThat(t.scaleDecisions()).isEmpty();
        assertThat(t.finalParallelism()).containsEntry("op", 10);
    }
}
