package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sizing guards: headroom, bounds, max parallelism, key-group alignment, dead band. */
class GuardsTest {

    /** A source at 1000 rec/s feeding one operator of 100 rec/s per instance: DS2 says 10. */
    private static final JobTopology JOB = topology(List.of("src:1", "op:10"), "src->op");

    private static ScalingDecision decide(PolicyConfig config, JobTopology t, double rate) {
        MetricsWindow w =
                window(
                        source("src", 1, 100_000, rate, 0),
                        op(
                                "op",
                                t.operator("op").parallelism(),
                                100.0 * t.operator("op").parallelism(),
                                0));
        return new Ds2Policy(config, clockAt(END)).decide(t, w, ScalingHistory.empty());
    }

    private static OperatorDecision opDecision(PolicyConfig config, JobTopology t, double rate) {
        return decide(config, t, rate).operators().get("op");
    }

    @Test
    void addsHeadroomForATargetUtilization() {
        OperatorDecision d =
                opDecision(PolicyConfig.builder().targetUtilization(0.8).build(), JOB, 1000);

        assertThat(d.newParallelism()).isEqualTo(13);
        assertThat(d.utilization())
                .isCloseTo(1000.0 / 1300, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.reasons().get(0)).contains("target utilization 0.80");
    }

    @Test
    void clampsToTheOperatorsMaxParallelismBound() {
        OperatorDecision d =
                opDecision(PolicyConfig.builder().operatorBounds("op", 1, 8).build(), JOB, 1000);

        assertThat(d.newParallelism()).isEqualTo(8);
        assertThat(d.reasons()).contains("clamped to max parallelism 8");
    }

    @Test
    void raisesToTheOperatorsMinParallelismBound() {
        OperatorDecision d =
                opDecision(PolicyConfig.builder().operatorBounds("op", 12, 20).build(), JOB, 1000);

        assertThat(d.newParallelism()).isEqualTo(12);
        assertThat(d.reasons()).contains("raised to min parallelism 12");
    }

    @Test
    void appliesJobBoundsToEveryOperatorUnlessOverridden() {
        PolicyConfig config = PolicyConfig.builder().jobBounds(2, 6).build();

        ScalingDecision d = decide(config, JOB, 1000);

        assertThat(d.newParallelism()).containsEntry("src", 2).containsEntry("op", 6);
    }

    @Test
    void neverExceedsTheOperatorsKeyGroups() {
        JobTopology small =
                new JobTopology(
                        "job",
                        List.of(OperatorSpec.of("src", 1), new OperatorSpec("op", 4, 16)),
                        List.of(new Edge("src", "op")));

        OperatorDecision d = opDecision(PolicyConfig.exactDs2(), small, 5000);

        assertThat(d.newParallelism()).isEqualTo(16);
        assertThat(d.reasons())
                .contains("clamped to max parallelism 16 (the operator's key groups)");
    }

    @Test
    void alignsToKeyGroupsWhenTheIncreaseIsSmall() {
        OperatorDecision d =
                opDecision(PolicyConfig.builder().alignToKeyGroups(0.1).build(), JOB, 1500);

        assertThat(d.newParallelism()).isEqualTo(16);
        assertThat(d.reasons()).contains("aligned to 16 to divide 128 key groups evenly (+1)");
    }

    @Test
    void keepsAnUnalignedParallelismWhenAligningWouldCostTooMuch() {
        OperatorDecision d =
                opDecision(PolicyConfig.builder().alignToKeyGroups(0.1).build(), JOB, 1000);

        assertThat(d.newParallelism()).isEqualTo(10);
    }

    @Test
    void holdsTrimsWithinTheDeadBand() {
        ScalingDecision d = decide(PolicyConfig.builder().deadBand(0.1).build(), JOB, 900);

        assertThat(d.outcome()).isEqualTo(Outcome.NO_CHANGE_WITHIN_DEAD_BAND);
        assertThat(d.newParallelism()).containsEntry("op", 10);
        assertThat(d.operators().get("op").recommendedParallelism()).isEqualTo(9);
        assertThat(d.operators().get("op").reasons())
                .anyMatch(r -> r.contains("within dead band ±10 %"));
    }

    @Test
    void neverHoldsARescaleTheRunningConfigurationNeedsWithinTheDeadBand() {
        ScalingDecision d = decide(PolicyConfig.builder().deadBand(0.1).build(), JOB, 1100);

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("op", 11);
    }

    @Test
    void scalesWhenAnyChangeLeavesTheDeadBand() {
        ScalingDecision d = decide(PolicyConfig.builder().deadBand(0.1).build(), JOB, 1200);

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("op", 12);
    }

    @Test
    void neverBlocksOnAScaleDownDelayWhenScalingUp() {
        PolicyConfig config =
                PolicyConfig.builder().scaleDownDelay(java.time.Duration.ofHours(1)).build();

        assertThat(decide(config, JOB, 3000).newParallelism()).containsEntry("op", 30);
    }

    @Test
    void explainsABlockReasonOnlyForBlockedDecisions() {
        assertThat(decide(PolicyConfig.exactDs2(), JOB, 3000).blockReason()).isEmpty();
        assertThat(
                        decide(PolicyConfig.exactDs2(), JOB, 3000)
                                .isBlocked(BlockReason.METRICS_MISSING))
                .isFalse();
    }
}
