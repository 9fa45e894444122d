package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A self-explaining decision: what to do ({@link Outcome}), why it is blocked if it is, and per
 * operator (topological order) the new parallelism and the reasons behind it. Build with the static
 * factories.
 */
public record ScalingDecision(
        Instant time,
        String jobName,
        Outcome outcome,
        Optional<BlockReason> blockReason,
        List<String> reasons,
        Map<String, OperatorDecision> operators) {

    public ScalingDecision {
        Checks.notNull(time, "decision time");
        Checks.notBlank(jobName, "decision job name");
        Checks.notNull(outcome, "decision outcome");
        Checks.notNull(blockReason, "decision block reason (use Optional.empty())");
        if ((outcome == Outcome.BLOCKED) != blockReason.isPresent()) {
            throw new PolicyException(
                    "decision of job '"
                            + jobName
                            + "' has outcome "
                            + outcome
                            + " with block reason "
                            + blockReason
                            + "; only BLOCKED decisions carry a block reason");
        }
        reasons = List.copyOf(reasons);
        operators = Collections.unmodifiableMap(new LinkedHashMap<>(operators));
    }

    /** A decision whose outcome follows from the operator decisions (SCALE or NO_CHANGE). */
    public static ScalingDecision of(
            Instant time, String job, List<String> reasons, List<OperatorDecision> ops) {
        Outcome outcome =
                ops.stream().anyMatch(OperatorDecision::changes)
                        ? Outcome.SCALE
                        : Outcome.NO_CHANGE;
        return new ScalingDecision(time, job, outcome, Optional.empty(), reasons, byId(ops));
    }

    public static ScalingDecision withinDeadBand(
            Instant time, String job, List<String> reasons, List<OperatorDecision> ops) {
        return new ScalingDecision(
                time,
                job,
                Outcome.NO_CHANGE_WITHIN_DEAD_BAND,
                Optional.empty(),
                reasons,
                byId(ops));
    }

    public static ScalingDecision blocked(
            Instant time,
            String job,
            BlockReason why,
            List<String> reasons,
            List<OperatorDecision> ops) {
        return new ScalingDecision(
                time, job, Outcome.BLOCKED, Optional.of(why), reasons, byId(ops));
    }

    public static ScalingDecision blocked(
            Instant time, String job, BlockReason why, String reason) {
        return blocked(time, job, why, List.of(reason), List.of());
    }

    private static Map<String, OperatorDecision> byId(List<OperatorDecision> ops) {
        // Sized up front: a large graph's decision would otherwise rehash it several times.
        Map<String, OperatorDecision> map = new LinkedHashMap<>(ops.size() * 4 / 3 + 1);
        ops.forEach(op -> map.put(op.operatorId(), op));
        return map;
    }

    public boolean isScale() {
        return outcome == Outcome.SCALE;
    }

    public boolean isBlocked(BlockReason why) {
        return blockReason.filter(why::equals).isPresent();
    }

    /** New parallelism per operator (empty when no operator was evaluated). */
    public Map<String, Integer> newParallelism() {
        Map<String, Integer> result = new LinkedHashMap<>();
        operators.forEach((id, op) -> result.put(id, op.newParallelism()));
        return result;
    }

    /**
     * What the decision changes, e.g. "split 2→4, count 3→6" (empty when it changes nothing): the
     * title of its Event summary and of its Grafana annotation.
     */
    public String changeSummary() {
        return operators.values().stream()
                .filter(OperatorDecision::changes)
                .map(
                        op ->
                                op.operatorId()
                                        + " "
                                        + op.currentParallelism()
                                        + "→"
                                        + op.newParallelism())
                .collect(Collectors.joining(", "));
    }

    /** A multi-line explanation for logs, events and reports. */
    public String explain() {
        StringBuilder sb = new StringBuilder(time + " " + jobName + ": " + outcome);
        blockReason.ifPresent(r -> sb.append(" (").append(r).append(')'));
        reasons.forEach(r -> sb.append("\n  ").append(r));
        operators
                .values()
                .forEach(
                        op ->
                                sb.append("\n  ")
                                        .append(op.operatorId())
                                        .append(": ")
                                        .append(op.currentParallelism())
                                        .append(" -> ")
                                        .append(op.newParallelism())
                                        .append(" ")
                                        .append(op.reasons()));
        return sb.toString();
    }
}
