package dev.flowscale.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.sim.ScenarioSuite;
import dev.flowscale.policy.sim.Simulation;
import dev.flowscale.policy.sim.TableDefaults;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The harness drives the real flink-autoscaler to a scaling decision on the simulated word count.
 */
class FlinkAutoscalerSimulationTest {

    @Test
    void theFlinkAutoscalerScalesTheWordCountOnceItsStabilizationAndMetricWindowHavePassed() {
        var scenario = ScenarioSuite.wordCount();

        var run =
                new FlinkAutoscalerSimulation(
                                scenario, TableDefaults.settings(Duration.ofSeconds(30)))
                        .run(Duration.ofMinutes(22));

        // Flink's defaults: 5 min stabilization, then a 15 min metric window, then one decision
        assertThat(run.trajectory().scaleDecisions())
                .singleElement()
                .satisfies(
                        d ->
                                assertThat(d.time())
                                        .isEqualTo(Simulation.EPOCH.plus(Duration.ofMinutes(20))));
        // the word count needs 10 flatMap and 20 count instances at 1000 sentences/s; Flink sizes
        // for
        // 70 % utilization plus draining the 20 minutes' backlog within its 30 min catch-up
        assertThat(run.trajectory().finalParallelism().get("flatMap")).isBetween(15, 30);
        assertThat(run.trajectory().finalParallelism().get("count")).isBetween(29, 60);
        assertThat(run.events())
                .anyMatch(
                        e ->
                                e.reason().equals("ScalingReport")
                                        && e.message()
                                                .contains(
                                                        "Parallelism 1 -> "
                                                                + run.trajectory()
                                                                        .finalParallelism()
                                                                        .get("flatMap")));
        assertThat(run.events())
                .filteredOn(e -> e.reason().equals(RecordingEventHandler.AUTOSCALER_ERROR_REASON))
                .isEmpty();
    }
}
