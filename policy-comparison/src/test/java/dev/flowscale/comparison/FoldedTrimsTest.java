package dev.flowscale.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.sim.ScenarioSuite;
import dev.flowscale.policy.sim.SettlingReport;
import dev.flowscale.policy.sim.SettlingReport.LoadChange;
import dev.flowscale.policy.sim.TableDefaults;
import dev.flowscale.policy.sim.Trajectory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The word count (three load changes: the start, 1.5× at 40 min, 0.75× at 80 min) at a 30 s
 * downtime: the table defaults rescale five times (a scale-up and a trim after each drain, a trim
 * at the step down); with trims folded into the next load change, once per change. One run, read by
 * every test.
 */
class FoldedTrimsTest {

    private static final Duration DOWNTIME = Duration.ofSeconds(30);
    private static final Trajectory RUN =
            ComparisonReport.foldedTrimsRun(ScenarioSuite.wordCount(), DOWNTIME);
    private static final SettlingReport REPORT =
            SettlingReport.check(RUN, TableDefaults.criteria(DOWNTIME));

    @Test
    void foldingTrimsLeavesOneRescalePerLoadChange() {
        assertThat(REPORT.loadChanges()).hasSize(3);
        assertThat(REPORT.summary().rescales()).isEqualTo(3);
        assertThat(REPORT.summary().drained()).isTrue();
        assertThat(REPORT.summary().revisits()).isZero();
    }

    @Test
    void theFoldedStartUpCapacityIsHeldUntilTheStepUpAndPaidForInInstances() {
        LoadChange start = REPORT.loadChanges().get(0);

        // the start-up scale-up, sized with the scalability prior and the catch-up, is kept
        assertThat(start.trims()).isZero();
        assertThat(start.finalParallelism().get("flatMap"))
                .isGreaterThan(start.optimum().get("flatMap"));
        // and held above it from the end of the drain until the step up at 40 minutes
        assertThat(RUN.parallelismHistory("flatMap", 600, ScenarioSuite.STEP_UP))
                .allMatch(p -> p == start.finalParallelism().get("flatMap"));
    }

    @Test
    void aFoldedTrimIsHeldWithItsReasonAndKeepsItsRecommendation() {
        assertThat(RUN.decisions())
                .anySatisfy(
                        d -> {
                            assertThat(d.isBlocked(BlockReason.SCALE_DOWN_DELAYED)).isTrue();
                            assertThat(d.reasons())
                                    .anySatisfy(
                                            reason ->
                                                    assertThat(reason)
                                                            .startsWith(FoldedTrims.FOLDED));
                            assertThat(d.operators().get("flatMap").recommendedParallelism())
                                    .isLessThan(d.operators().get("flatMap").currentParallelism());
                        });
    }
}
