package dev.flowscale.operator.loop;

import dev.flowscale.operator.api.DecisionRecord;
import dev.flowscale.operator.api.OperatorChange;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import java.util.ArrayList;
import java.util.Locale;
import java.util.stream.Collectors;

/** Scaling decisions as the StreamJob status and Events show them. */
final class DecisionRecords {
    private DecisionRecords() {}

    static DecisionRecord of(ScalingDecision decision) {
        DecisionRecord record = new DecisionRecord();
        record.time = decision.time().toString();
        record.outcome = decision.outcome().name();
        for (OperatorDecision op : decision.operators().values()) {
            record.operators.add(
                    new OperatorChange(
                            op.operatorId(),
                            op.currentParallelism(),
                            op.newParallelism(),
                            op.targetInputRate(),
                            op.capacityPerInstance()));
        }
        record.reasons = new ArrayList<>(decision.reasons());
        decision.blockReason().ifPresent(why -> record.reasons.add(0, "blocked: " + why));
        record.summary = summary(decision);
        return record;
    }

    /** "split 2→4, count 3→6" for SCALE; the outcome (and block reason) otherwise. */
    static String summary(ScalingDecision decision) {
        if (decision.outcome() == Outcome.BLOCKED) {
            return "BLOCKED (" + decision.blockReason().orElseThrow() + ")";
        }
        String changes = decision.changeSummary();
        return changes.isEmpty() ? decision.outcome().name() : changes;
    }

    /**
     * The Event message: the summary, then per operator the target rate and capacity, then reasons.
     */
    static String message(ScalingDecision decision) {
        String figures =
                decision.operators().values().stream()
                        .filter(OperatorDecision::changes)
                        .map(
                                op ->
                                        String.format(
                                                Locale.ROOT,
                                                "%s: target %.1f/s, %.1f/s per instance",
                                                op.operatorId(),
                                                op.targetInputRate(),
                                                op.capacityPerInstance()))
                        .collect(Collectors.joining("; "));
        String reasons = String.join("; ", decision.reasons());
        return summary(decision)
                + (figures.isEmpty() ? "" : " [" + figures + "]")
                + (reasons.isEmpty() ? "" : ": " + reasons);
    }
}
