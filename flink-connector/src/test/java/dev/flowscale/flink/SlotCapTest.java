package dev.flowscale.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A decision never needs more task slots than the Flink job may use: per slot-sharing group its
 * highest parallelism, summed over the groups.
 */
class SlotCapTest {
    private static final Instant NOW = Instant.parse("2026-12-01T16:00:00Z");
    private static final String WHY = "the Flink cluster has 16 task slots on 2 TaskManager(s)";

    private static OperatorDecision op(String id, int from, int to) {
        return new OperatorDecision(id, from, to, to, 100.0 * to, 100, 1.0, 0, List.of("DS2"));
    }

    private static ScalingDecision decision(OperatorDecision... ops) {
        return ScalingDecision.of(NOW, "wordcount", List.of("window 60 s"), List.of(ops));
    }

    private static SlotLimit oneGroup(int slots) {
        return new SlotLimit(slots, WHY, Map.of());
    }

    @Test
    void aDecisionWithinTheSlotsIsLeftAsItIs() {
        ScalingDecision d = decision(op("Source", 1, 1), op("Split", 1, 3), op("Count", 5, 16));

        assertThat(SlotCap.apply(d, oneGroup(16))).isSameAs(d);
    }

    @Test
    void aVertexAboveTheClustersSlotsIsCappedThereAndItsReasonsSayWhy() {
        ScalingDecision d = decision(op("Source", 1, 1), op("Split", 1, 3), op("Count", 5, 32));

        ScalingDecision capped = SlotCap.apply(d, oneGroup(16));

        assertThat(capped.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(capped.newParallelism()).isEqualTo(Map.of("Source", 1, "Split", 3, "Count", 16));
        OperatorDecision count = capped.operators().get("Count");
        assertThat(count.recommendedParallelism()).isEqualTo(16);
        assertThat(count.utilization()).isEqualTo(2.0);
        assertThat(count.reasons())
                .startsWith("DS2")
                .last()
                .asString()
                .startsWith("capped at 16 by task slots (asked 32): the job may use 16")
                .contains("one slot-sharing group")
                .endsWith(WHY);
        assertThat(capped.operators().get("Split")).isEqualTo(d.operators().get("Split"));
        assertThat(capped.reasons())
                .containsExactly(
                        "window 60 s",
                        "task slots bound this decision: it needs 32, the job may use 16 ("
                                + WHY
                                + ")");
    }

    @Test
    void aScaleUpOfAVertexAlreadyAtTheSlotsBecomesNoChange() {
        ScalingDecision d = decision(op("Source", 1, 1), op("Count", 16, 32));

        ScalingDecision capped = SlotCap.apply(d, oneGroup(16));

        assertThat(capped.outcome()).isEqualTo(Outcome.NO_CHANGE);
        assertThat(capped.newParallelism()).containsEntry("Count", 16);
        assertThat(capped.explain()).contains("capped at 16 by task slots (asked 32)");
    }

    /**
     * As in the side-by-side run of 1 December (after the cost in re-read input): Count at the
     * slots asked 32, Split was sized for what Count would carry there and went down. Capped, the
     * rescale would only lower Split and cost a restart from a checkpoint.
     */
    @Test
    void aScaleUpCappedAtTheRunningParallelismThatOnlyLowersAnotherVertexBecomesNoChange() {
        ScalingDecision d = decision(op("Source", 1, 1), op("Split", 7, 3), op("Count", 16, 32));

        ScalingDecision capped = SlotCap.apply(d, oneGroup(16));

        assertThat(capped.outcome()).isEqualTo(Outcome.NO_CHANGE);
        assertThat(capped.newParallelism()).isEqualTo(Map.of("Source", 1, "Split", 7, "Count", 16));
        assertThat(capped.reasons()).last().isEqualTo(SlotCap.HELD);
        assertThat(capped.operators().get("Split").reasons()).last().isEqualTo(SlotCap.HELD);
        assertThat(capped.operators().get("Count").reasons())
                .last()
                .asString()
                .startsWith("capped at 16 by task slots (asked 32)");
    }

    @Test
    void aTrimWithinTheSlotsStillLowersVertices() {
        ScalingDecision d = decision(op("Source", 1, 1), op("Split", 7, 3), op("Count", 16, 9));

        assertThat(SlotCap.apply(d, oneGroup(16))).isSameAs(d);
    }

    @Test
    void slotSharingGroupsKeepTheirSlotsAndShareTheRestInProportionToTheirAsk() {
        ScalingDecision d = decision(op("Source", 1, 1), op("Split", 2, 10), op("Count", 2, 30));
        Map<String, String> groups = Map.of("Source", "a", "Split", "a", "Count", "b");

        ScalingDecision capped = SlotCap.apply(d, new SlotLimit(16, WHY, groups));

        // each keeps 2; of the 12 left, Split's group asked 8 and Count's 28 more: 2 + 10, rounded
        assertThat(capped.newParallelism()).isEqualTo(Map.of("Source", 1, "Split", 4, "Count", 12));
        assertThat(SlotCap.slotsNeeded(capped.newParallelism(), groups)).isEqualTo(16);
        assertThat(capped.operators().get("Count").reasons())
                .last()
                .asString()
                .contains("slot-sharing group 'b' gets 12 of them");
    }

    @Test
    void aGroupThatScalesDownLeavesItsSlotsToTheOthers() {
        ScalingDecision d = decision(op("Split", 8, 2), op("Count", 8, 20));
        Map<String, String> groups = Map.of("Split", "a", "Count", "b");

        ScalingDecision capped = SlotCap.apply(d, new SlotLimit(16, WHY, groups));

        assertThat(capped.newParallelism()).isEqualTo(Map.of("Split", 2, "Count", 14));
    }

    @Test
    void vertexesWithoutAKnownGroupShareFlinksDefaultGroup() {
        Map<String, Integer> parallelism = Map.of("Source", 1, "Split", 3, "Count", 5);

        assertThat(SlotCap.slotsNeeded(parallelism, Map.of("Split", ""))).isEqualTo(5);
        assertThat(SlotCap.slotsNeeded(parallelism, Map.of("Count", "heavy"))).isEqualTo(8);
    }

    @Test
    void theBoundPolicyCapsWhatTheInnerPolicyDecidesOnlyWhenALimitIsKnown() {
        ScalingDecision d = decision(op("Count", 4, 32));
        Optional<SlotLimit>[] limit = new Optional[] {Optional.empty()};
        SlotBoundPolicy policy = new SlotBoundPolicy((t, w, h) -> d, () -> limit[0]);

        assertThat(policy.decide(null, null, null)).isSameAs(d);
        limit[0] = Optional.of(oneGroup(8));
        assertThat(policy.decide(null, null, null).newParallelism()).containsEntry("Count", 8);
    }
}
