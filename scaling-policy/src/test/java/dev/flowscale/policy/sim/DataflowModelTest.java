package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DataflowModelTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private final ManualClock clock = new ManualClock(Simulation.EPOCH);

    /** source (rate) -> op (capacity 100/instance, selectivity 2) -> sink (capacity 1000). */
    private static Scenario chain(double rate, SimOperator op, int p) {
        return new Scenario(
                "chain",
                List.of(
                        SimOperator.source("src", 10_000, RateProfile.constant(rate)),
                        op,
                        SimOperator.operator("sink", 1000, 0)),
                List.of(new Edge("src", "op"), new Edge("op", "sink")),
                Map.of("src", 1, "op", p, "sink", 1));
    }

    private MetricsWindow runFor(DataflowModel model, int seconds) {
        for (int i = 0; i < seconds; i++) {
            clock.advance(SECOND);
            model.step(SECOND);
        }
        return new SimulatedMetrics(model, SECOND, Duration.ofSeconds(10))
                .currentWindow()
                .orElseThrow();
    }

    private OperatorMetrics metricsAfter(Scenario s, int seconds, String id) {
        return runFor(new DataflowModel(s, clock, 2, 0, 1), seconds).metrics(id).orElseThrow();
    }

    @Test
    void aSaturatedJoinTakesFromEachInputInTurnSoBothSourcesFallBehindAlike() {
        // two sources offer 300/s each to a join that carries 400/s: each input gets about half
        Scenario join =
                new Scenario(
                        "join",
                        List.of(
                                SimOperator.source("a", 10_000, RateProfile.constant(300)),
                                SimOperator.source("b", 10_000, RateProfile.constant(300)),
                                SimOperator.operator("join", 400, 0)),
                        List.of(new Edge("a", "join"), new Edge("b", "join")),
                        Map.of("a", 1, "b", 1, "join", 1));
        DataflowModel model = new DataflowModel(join, clock, 2, 0, 1);

        runFor(model, 120);

        // 120 s × 200/s short in all, less what the join's buffers hold
        assertThat(model.backlog("a") + model.backlog("b")).isGreaterThan(20_000);
        assertThat(model.backlog("a")).isCloseTo(model.backlog("b"), offset(1.0));
    }

    @Test
    void reportsTrueRatesFromUsefulTimeAndObservedRatesFromTheWindow() {
        OperatorMetrics op =
                metricsAfter(chain(150, SimOperator.operator("op", 100, 2), 4), 30, "op");

        assertThat(op.trueProcessingRate()).isCloseTo(400, offset(1e-6));
        assertThat(op.trueOutputRate()).isCloseTo(800, offset(1e-6));
        assertThat(op.observedProcessingRate()).isCloseTo(150, offset(1e-6));
        assertThat(op.instances()).hasSize(4);
    }

    @Test
    void aHotKeyLiesInKeyGroupZeroAndItsInstanceOwnsTheLargestKeyGroupRange() {
        OperatorMetrics op =
                metricsAfter(
                        chain(128, SimOperator.operator("op", 100, 2).withSkew(0.25), 3), 30, "op");

        // 128 rec/s: key group 0 takes 25 % + 75 %/128, every other key group 75 %/128 = 0.75
        // rec/s.
        assertThat(op.keyGroupRates()).hasSize(128);
        assertThat(op.keyGroupRates().get(0)).isCloseTo(32.75, offset(1e-6));
        assertThat(op.keyGroupRates().get(127)).isCloseTo(0.75, offset(1e-6));
        // Instance 0 of 3 owns key groups [0, 43): 32 + 43 · 0.75; instance 2 owns [86, 128): 42 ·
        // 0.75.
        assertThat(op.instances().get(0).observedProcessingRate())
                .isCloseTo(32 + 43 * 0.75, offset(1e-6));
        assertThat(op.instances().get(2).observedProcessingRate())
                .isCloseTo(42 * 0.75, offset(1e-6));
    }

    @Test
    void backpressureSlowsTheSourceAndBuildsBacklog() {
        Scenario s = chain(500, SimOperator.operator("op", 100, 2), 2);
        DataflowModel model = new DataflowModel(s, clock, 2, 0, 1);

        OperatorMetrics src = runFor(model, 30).metrics("src").orElseThrow();

        assertThat(src.observedOutputRate()).isCloseTo(200, offset(1e-6));
        assertThat(src.source().orElseThrow().offeredRate()).isCloseTo(500, offset(1e-6));
        assertThat(model.totalBacklog()).isGreaterThan(30 * 290);
        assertThat(src.trueOutputRate()).isCloseTo(10_000, offset(1e-6));
    }

    @Test
    void scalesCapacitySublinearlyWithAlpha() {
        OperatorMetrics op =
                metricsAfter(
                        chain(1000, SimOperator.operator("op", 100, 1).withAlpha(0.8), 4),
                        30,
                        "op");

        double capacity = 100 * Math.pow(4, 0.8);
        assertThat(op.observedProcessingRate()).isCloseTo(capacity, offset(1e-6));
        assertThat(op.capacityPerInstance()).isCloseTo(capacity / 4, offset(1e-6));
    }

    @Test
    void losesCapacityToAPerInstanceOverhead() {
        OperatorMetrics op =
                metricsAfter(
                        chain(1000, SimOperator.operator("op", 100, 1).withOverhead(0.1), 4),
                        30,
                        "op");

        assertThat(op.capacityPerInstance()).isCloseTo(100 / 1.3, offset(1e-6));
    }

    @Test
    void limitsASkewedOperatorByItsHotInstance() {
        OperatorMetrics op =
                metricsAfter(
                        chain(1000, SimOperator.operator("op", 100, 1).withSkew(0.3), 4), 30, "op");

        double hotShare = 0.3 + 0.7 / 4;
        assertThat(op.observedProcessingRate()).isCloseTo(100 / hotShare, offset(1e-6));
        assertThat(op.capacityPerInstance()).isCloseTo(100, offset(1e-6));
        assertThat(op.instances().get(0).observedProcessingRate()).isCloseTo(100, offset(1e-6));
    }

    @Test
    void accumulatesBacklogWhileARescaleKeepsTheJobDown() {
        DataflowModel model =
                new DataflowModel(
                        chain(100, SimOperator.operator("op", 100, 2), 1), clock, 2, 0, 1);
        runFor(model, 10);

        var done = model.rescale(Map.of("op", 2), Duration.ofSeconds(20));
        for (int i = 0; i < 20; i++) {
            assertThat(done).isNotDone();
            clock.advance(SECOND);
            model.step(SECOND);
        }

        assertThat(done).isDone();
        assertThat(model.totalBacklog()).isCloseTo(2000, offset(1e-6));
        assertThat(model.topology().operator("op").parallelism()).isEqualTo(2);
        assertThat(model.restartedAt()).isEqualTo(clock.instant());
    }

    @Test
    void repeatsTheSameTrajectoryForTheSameSeed() {
        Scenario s = chain(500, SimOperator.operator("op", 100, 2), 1);
        SimulationSettings noisy = SimulationSettings.defaults().withNoise(0.05, 7);

        Trajectory a = Simulation.ds2(s, PolicyConfig.exactDs2(), noisy).run(Duration.ofMinutes(3));
        Trajectory b = Simulation.ds2(s, PolicyConfig.exactDs2(), noisy).run(Duration.ofMinutes(3));

        assertThat(a.points()).isEqualTo(b.points());
        assertThat(a.decisions()).isEqualTo(b.decisions());
    }

    @Test
    void countsRecordsBusyAndBackpressuredTimeSinceTheLastRestartAsFlinkTaskMetricsDo() {
        // op (2 × 100/s) cannot keep up with 500/s: after its queue fills, the source is blocked
        Scenario s = chain(500, SimOperator.operator("op", 100, 2), 2);
        DataflowModel model = new DataflowModel(s, clock, 2, 0, 1);
        runFor(model, 30);

        DataflowModel.OperatorCounters op = model.counters("op");
        DataflowModel.OperatorCounters src = model.counters("src");
        // operators run sinks first, so in the first second op's queue is still empty
        assertThat(op.recordsIn()).isCloseTo(29 * 200, offset(1e-6));
        assertThat(op.recordsOut()).isCloseTo(29 * 400, offset(1e-6));
        assertThat(op.busySeconds()).containsExactly(new double[] {29, 29}, offset(1e-9));
        assertThat(src.backpressuredSeconds()[0]).isGreaterThan(25).isLessThanOrEqualTo(30);
        assertThat(model.backlog("src")).isEqualTo(model.totalBacklog());

        model.rescale(Map.of("src", 1, "op", 5, "sink", 1), Duration.ofSeconds(2));
        runFor(model, 3);

        // down for 2 s, then one second at 5 instances, counted from zero
        assertThat(model.counters("op").busySeconds()).hasSize(5);
        assertThat(model.counters("op").recordsIn()).isPositive().isLessThanOrEqualTo(500);
    }
}
