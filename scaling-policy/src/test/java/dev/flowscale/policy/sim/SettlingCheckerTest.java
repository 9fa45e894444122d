package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.sim.SettlingReport.Criterion;
import dev.flowscale.policy.sim.SettlingReport.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checker itself, on hand-made trajectories of source (1000/s) → op (100/s per instance), whose
 * optimum is 10 before the load doubles at 600 s and 20 after.
 */
class SettlingCheckerTest {

    private static final Scenario JOB =
            new Scenario(
                    "hand-made",
                    List.of(
                            SimOperator.source(
                                    "src", 100_000, RateProfile.constant(1000).then(600, 2000)),
                            SimOperator.operator("op", 100, 0)),
                    List.of(new Edge("src", "op")),
                    Map.of("src", 1, "op", 5));
    private static final SettlingCriteria CRITERIA = bar().build();

    @Test
    void aTrajectoryThatSizesOnceAndDrainsSettles() {
        // up to 11 to drain, one trim to the optimum 10; after the doubling straight to 20
        Trajectory t =
                new Path()
                        .run(30, 5, 500)
                        .rescale(10, 11)
                        .run(60, 11, 0)
                        .rescale(10, 10)
                        .run(490, 10, 0)
                        .rescale(10, 20)
                        .run(600, 20, 0)
                        .trajectory();

        SettlingReport report = SettlingReport.check(t, CRITERIA);

        assertThat(report.violations()).isEmpty();
        assertThat(report.loadChanges())
                .extracting(SettlingReport.LoadChange::rescalesToSustain)
                .containsExactly(1, 1);
        assertThat(report.loadChanges())
                .extracting(SettlingReport.LoadChange::trims)
                .containsExactly(1, 0);
        assertThat(report.summary().rescales()).isEqualTo(3);
        assertThat(report.summary().worstSecondsToSustain()).isEqualTo(41);
        // one instance above the optimum while at 11: 60 s running and 10 s going down to 10
        assertThat(report.summary().overProvisionedInstanceMinutes())
                .isCloseTo(70 / 60.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aFlappingTrajectoryViolatesEveryCriterionAndSaysWhereAndWhen() {
        // up to 9 (short), 12, back to 9, 12 again: revisits, a backlog that never drains, and the
        // phase ends at 12 (above the linear optimum); after the doubling it stays at 12 (too few)
        Trajectory t =
                new Path()
                        .run(20, 5, 500)
                        .rescale(30, 9)
                        .run(30, 9, 3000)
                        .rescale(30, 12)
                        .run(30, 12, 2500)
                        .rescale(30, 9)
                        .run(30, 9, 4000)
                        .rescale(30, 12)
                        .run(380, 12, 3000)
                        .run(1200, 12, 9000)
                        .trajectory();

        SettlingReport report = SettlingReport.check(t, CRITERIA);

        assertThat(report.violations())
                .extracting(Violation::criterion)
                .contains(
                        Criterion.RESCALES_TO_SUSTAIN,
                        Criterion.TRIMS_AFTER_SUSTAIN,
                        Criterion.REVISIT_WITHOUT_LOAD_CHANGE,
                        Criterion.BACKLOG_DRAINED,
                        Criterion.FINAL_SUSTAINS,
                        Criterion.FINAL_MINIMAL);
        assertThat(report.violations())
                .filteredOn(v -> v.criterion() == Criterion.REVISIT_WITHOUT_LOAD_CHANGE)
                .extracting(Violation::second)
                .containsExactly(141L, 201L);
        assertThat(report.violations())
                .filteredOn(v -> v.criterion() == Criterion.FINAL_MINIMAL)
                .singleElement()
                .satisfies(
                        v -> {
                            assertThat(v.operator()).isEqualTo("op");
                            assertThat(v.second()).isEqualTo(599);
                            assertThat(v.detail()).contains("12 instances, optimum 10");
                        });
        assertThat(report.violations())
                .filteredOn(v -> v.criterion() == Criterion.FINAL_SUSTAINS)
                .singleElement()
                .satisfies(
                        v ->
                                assertThat(v.detail())
                                        .contains("12 instances carry 1200.0/s of the 2000.0/s"));
        assertThat(report.summary().revisits()).isEqualTo(2);
        assertThat(report.summary().worstSecondsToSustain()).isEqualTo(-1);
        assertThat(report.summary().drained()).isFalse();
        assertThat(report.summary().peakBacklog()).isEqualTo(9000);
    }

    @Test
    void
            aFinalConfigurationAboveTheMinimumIsExemptedOnlyWhenTheTrimToItWouldNotPayForItsDowntime() {
        // with a 10 s downtime reserve the minimum is 12 before the doubling; the job stays at 13
        Trajectory t =
                new Path()
                        .run(30, 5, 500)
                        .rescale(10, 13)
                        .run(560, 13, 0)
                        .rescale(10, 24)
                        .run(600, 24, 0)
                        .trajectory();
        SettlingCriteria.Builder reserve = bar().downtimeReserve(Duration.ofSeconds(10));

        // saves 1 instance × 100 s; costs 14 running instances × 10 s
        SettlingReport cheapTrimSkipped =
                SettlingReport.check(t, reserve.savingsHorizon(Duration.ofSeconds(100)).build());
        SettlingReport trimThatPaysSkipped =
                SettlingReport.check(t, reserve.savingsHorizon(Duration.ofHours(1)).build());

        assertThat(cheapTrimSkipped.settled()).isTrue();
        assertThat(cheapTrimSkipped.exemptions())
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.kind())
                                    .isEqualTo(
                                            SettlingReport.Exemption.Kind
                                                    .TRIM_NOT_WORTH_ITS_DOWNTIME);
                            assertThat(e.violation().detail()).contains("13 instances, optimum 12");
                            assertThat(e.why())
                                    .contains("saves 1 instances × 100 s = 100 instance-s")
                                    .contains("costs 14 instances × 10 s = 140 instance-s");
                        });
        assertThat(trimThatPaysSkipped.exemptions()).isEmpty();
        assertThat(trimThatPaysSkipped.violations())
                .extracting(Violation::criterion)
                .containsExactly(Criterion.FINAL_MINIMAL);
    }

    @Test
    void aLateDrainIsClassifiedByTheBoundsOnHowSoonAnyPolicyOrAReactiveOneCouldDrain() {
        // a hot key takes half the input: at best (128 instances) the operator carries 198.4/s;
        // drain deadline 41 s + 60 s catch-up + 10 s interval; the backlog stays until 150 s
        SettlingCriteria criteria = bar().downtimeReserve(Duration.ofSeconds(10)).build();

        SettlingReport any = SettlingReport.check(lateDrain(180), criteria);
        SettlingReport reactive = SettlingReport.check(lateDrain(170), criteria);
        SettlingReport possible = SettlingReport.check(lateDrain(120), criteria);

        // down to the 1 s of input that counts as drained: (10 s − 1 s) × 180 / (198.4 − 180) = 88
        // s
        assertThat(any.exemptions())
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.kind())
                                    .isEqualTo(
                                            SettlingReport.Exemption.Kind
                                                    .IMPOSSIBLE_FOR_ANY_POLICY);
                            assertThat(e.why()).contains("'op' takes 88 s of the 70 s allowed");
                        });
        assertThat(any.violations()).isEmpty();
        assertThat(any.summary().drained()).isFalse();
        // any policy: 54 s; seeing it 10 s late from 1 instance (100/s of 170/s): 78 s
        assertThat(reactive.exemptions())
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.kind())
                                    .isEqualTo(
                                            SettlingReport.Exemption.Kind
                                                    .IMPOSSIBLE_FOR_A_REACTIVE_POLICY);
                            assertThat(e.why())
                                    .contains("takes 54 s of the 70 s allowed")
                                    .contains("takes 78 s of the 70 s allowed");
                        });
        assertThat(possible.exemptions()).isEmpty();
        assertThat(possible.violations())
                .filteredOn(v -> v.criterion() == Criterion.BACKLOG_DRAINED)
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("'op' takes 14 s of the 70 s"));
    }

    private static Trajectory lateDrain(double rate) {
        Scenario hot =
                new Scenario(
                        "hot-key",
                        List.of(
                                SimOperator.source("src", 100_000, RateProfile.constant(rate)),
                                SimOperator.operator("op", 100, 0).withSkew(0.5)),
                        List.of(new Edge("src", "op")),
                        Map.of("src", 1, "op", 1));
        return new Path(hot)
                .run(30, 1, 500)
                .rescale(10, 64)
                .run(109, 64, 1000)
                .run(450, 64, 0)
                .trajectory();
    }

    @Test
    void theScenarioSuiteHasFiftyRandomGraphsWithCapacitiesSpanningMoreThanAHundredfold() {
        List<Scenario> suite = ScenarioSuite.all();
        List<SimOperator> ops =
                suite.stream()
                        .flatMap(s -> s.operators().stream())
                        .filter(op -> !op.isSource())
                        .toList();

        assertThat(suite).hasSize(52);
        assertThat(
                        ops.stream().mapToDouble(SimOperator::capacity).max().orElseThrow()
                                / ops.stream()
                                        .mapToDouble(SimOperator::capacity)
                                        .min()
                                        .orElseThrow())
                .isGreaterThan(100);
        assertThat(ops)
                .anyMatch(op -> op.alpha() < 1)
                .anyMatch(op -> op.skew() > 0)
                .anyMatch(op -> op.selectivity() < 0.2)
                .anyMatch(op -> op.selectivity() > 5);
        assertThat(suite)
                .anyMatch(
                        s -> s.edges().stream().map(Edge::to).distinct().count() < s.edges().size())
                .anyMatch(
                        s ->
                                s.edges().stream().map(Edge::from).distinct().count()
                                        < s.edges().size());
        suite.forEach(
                s ->
                        assertThat(s.optimalParallelism(ScenarioSuite.STEP_UP).values())
                                .as(s.name())
                                .allMatch(p -> p <= 32));
        assertThat(ScenarioSuite.all()).isEqualTo(suite);
    }

    /**
     * Builds a trajectory second by second: running phases and rescales (down, then the new
     * parallelism).
     */
    private static final class Path {
        private final List<Trajectory.Point> points = new ArrayList<>();
        private final Scenario job;
        private int op;

        Path() {
            this(JOB);
        }

        Path(Scenario job) {
            this.job = job;
            this.op = job.initial().get("op");
        }

        Path run(int seconds, int parallelism, double backlog) {
            op = parallelism;
            for (int i = 0; i < seconds; i++) {
                points.add(
                        new Trajectory.Point(
                                points.size() + 1, Map.of("src", 1, "op", op), backlog, false));
            }
            return this;
        }

        Path rescale(int downtime, int target) {
            for (int i = 0; i < downtime; i++) {
                points.add(
                        new Trajectory.Point(
                                points.size() + 1, Map.of("src", 1, "op", op), 1000, true));
            }
            op = target;
            return this;
        }

        Trajectory trajectory() {
            return new Trajectory(job, List.of(), points, List.of());
        }
    }

    /** Issue 12's bar at a catch-up time of 60 s and an interval of 10 s. */
    private static SettlingCriteria.Builder bar() {
        return SettlingCriteria.builder(Duration.ofSeconds(60), Duration.ofSeconds(10));
    }
}
