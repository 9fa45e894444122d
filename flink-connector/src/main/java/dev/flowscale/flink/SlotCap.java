package dev.flowscale.flink;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.Reasons;
import dev.flowscale.policy.api.ScalingDecision;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounds a decision by the task slots a Flink job may use. Flink runs one subtask of each vertex of
 * a slot-sharing group together in one slot, so a job needs, per group, as many slots as the
 * group's highest parallelism, and the sum of those in all. A decision that needs more never runs
 * as decided: the adaptive scheduler runs the job at what fits, the default scheduler waits for
 * slots until the rescale times out and is rolled back. So a vertex above its group's share of the
 * slots is capped at it, and its reasons say so, as for any other limit.
 *
 * <p>A group keeps the slots it holds (or fewer, where the decision lowers it); the slots left are
 * shared among the groups that ask for more in proportion to what they ask. Flink's default puts
 * every vertex in one group, which then gets all the job's slots.
 */
public final class SlotCap {
    /** Flink's slot-sharing group of every vertex that sets none. */
    static final String DEFAULT_GROUP = "default";

    private SlotCap() {}

    /** Slots a job needs at these parallelisms: per slot-sharing group its highest, summed. */
    public static int slotsNeeded(Map<String, Integer> parallelism, Map<String, String> groups) {
        return sum(byGroup(parallelism, groups));
    }

    /** The decision bounded by the limit; the same decision when it fits. */
    public static ScalingDecision apply(ScalingDecision decision, SlotLimit limit) {
        Map<String, Integer> demand = byGroup(decision.newParallelism(), limit.groups());
        int need = sum(demand);
        if (need <= limit.slots()) {
            return decision;
        }
        Map<String, Integer> current = new LinkedHashMap<>();
        decision.operators().forEach((id, op) -> current.put(id, op.currentParallelism()));
        Map<String, Integer> shares =
                shares(demand, byGroup(current, limit.groups()), limit.slots());
        Map<String, OperatorDecision> ops = new LinkedHashMap<>();
        for (OperatorDecision op : decision.operators().values()) {
            String group = groupOf(limit.groups(), op.operatorId());
            int cap = shares.get(group);
            ops.put(
                    op.operatorId(),
                    op.newParallelism() > cap ? capped(op, cap, group, shares, limit) : op);
        }
        List<String> reasons = new ArrayList<>(decision.reasons());
        reasons.add(
                "task slots bound this decision: it needs "
                        + need
                        + ", the job may use "
                        + limit.slots()
                        + " ("
                        + limit.why()
                        + ")");
        if (decision.outcome() == Outcome.SCALE && onlyLowers(decision, ops)) {
            reasons.add(HELD);
            List<OperatorDecision> held =
                    ops.values().stream()
                            .map(
                                    op ->
                                            op.changes()
                                                    ? op.withNewParallelism(
                                                            op.currentParallelism(), HELD)
                                                    : op)
                            .toList();
            return ScalingDecision.of(decision.time(), decision.jobName(), reasons, held);
        }
        if (decision.outcome() == Outcome.SCALE) {
            return ScalingDecision.of(
                    decision.time(), decision.jobName(), reasons, List.copyOf(ops.values()));
        }
        return new ScalingDecision(
                decision.time(),
                decision.jobName(),
                decision.outcome(),
                decision.blockReason(),
                reasons,
                ops);
    }

    private static Map<String, Integer> byGroup(
            Map<String, Integer> parallelism, Map<String, String> groups) {
        Map<String, Integer> max = new LinkedHashMap<>();
        parallelism.forEach((id, p) -> max.merge(groupOf(groups, id), p, Math::max));
        return max;
    }

    /** An operator's slot-sharing group; Flink's default group where none is known. */
    static String groupOf(Map<String, String> groups, String operatorId) {
        String group = groups.get(operatorId);
        return group == null || group.isEmpty() ? DEFAULT_GROUP : group;
    }

    /** Slots per group: what it keeps, plus its part of the rest in proportion to its ask. */
    static Map<String, Integer> shares(
            Map<String, Integer> demand, Map<String, Integer> current, int slots) {
        Map<String, Integer> caps = new LinkedHashMap<>();
        demand.forEach((g, d) -> caps.put(g, Math.min(d, current.getOrDefault(g, d))));
        int kept = sum(caps);
        if (kept > slots) {
            // the cluster lost slots under the job: every group shrinks alike, one slot at least
            int need = sum(demand);
            demand.forEach((g, d) -> caps.put(g, Math.max(1, (int) ((long) slots * d / need))));
            return caps;
        }
        int spare = slots - kept;
        long asked = sum(demand) - kept;
        demand.forEach(
                (g, d) ->
                        caps.merge(
                                g, (int) ((long) spare * (d - caps.get(g)) / asked), Integer::sum));
        List<String> wanting =
                demand.keySet().stream()
                        .sorted(Comparator.comparingInt(g -> caps.get(g) - demand.get(g)))
                        .toList();
        // flooring left fewer slots than groups: one more each to the groups short the most
        for (int left = slots - sum(caps), i = 0; left > 0 && i < wanting.size(); i++) {
            String g = wanting.get(i);
            if (caps.get(g) < demand.get(g)) {
                caps.merge(g, 1, Integer::sum);
                left--;
            }
        }
        return caps;
    }

    static final String HELD =
            "no rescale: the task slots keep the vertices that asked for more where they run, and"
                    + " lowering the others alone carries no more while it costs a rescale (in place,"
                    + " the input since the latest checkpoint is read again)";

    /**
     * A scale-up the slots cut back to the running parallelism, leaving only vertices that go down:
     * what the decision was for (more capacity) does not happen, only its cost would.
     */
    private static boolean onlyLowers(ScalingDecision asked, Map<String, OperatorDecision> capped) {
        boolean askedMore =
                asked.operators().values().stream()
                        .anyMatch(op -> op.newParallelism() > op.currentParallelism());
        boolean getsMore =
                capped.values().stream()
                        .anyMatch(op -> op.newParallelism() > op.currentParallelism());
        return askedMore && !getsMore;
    }

    private static int sum(Map<String, Integer> values) {
        return values.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static OperatorDecision capped(
            OperatorDecision op, int cap, String group, Map<String, Integer> shares, SlotLimit l) {
        String share =
                shares.size() == 1
                        ? "its vertices share slots (one slot-sharing group), so none runs more"
                                + " than "
                                + cap
                                + " instances"
                        : "slot-sharing group '" + group + "' gets " + cap + " of them";
        String reason =
                "capped at "
                        + cap
                        + " by task slots (asked "
                        + op.newParallelism()
                        + "): the job may use "
                        + l.slots()
                        + ", "
                        + share
                        + "; "
                        + l.why();
        double util =
                op.capacityPerInstance() > 0
                        ? op.targetInputRate() / (cap * op.capacityPerInstance())
                        : 0;
        return new OperatorDecision(
                op.operatorId(),
                op.currentParallelism(),
                cap,
                Math.min(op.recommendedParallelism(), cap),
                op.targetInputRate(),
                op.capacityPerInstance(),
                util,
                op.catchUpShare(),
                Reasons.copyOf(op.reasons()).plus(reason));
    }
}
