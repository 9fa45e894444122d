package dev.flowscale.charts;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One scaling decision as Grafana shows it: at {@code epochMillis} (the series value the annotation
 * takes its time from), titled with what changed, and when it was decided.
 */
record Annotation(long epochMillis, String change, String decidedAt) {

    /**
     * The annotation a decision should produce: time and "op current→new, ..." of the operators it
     * changes.
     */
    static Annotation of(ScalingDecision decision) {
        String change =
                decision.operators().values().stream()
                        .filter(OperatorDecision::changes)
                        .map(
                                op ->
                                        op.operatorId()
                                                + " "
                                                + op.currentParallelism()
                                                + "→"
                                                + op.newParallelism())
                        .collect(Collectors.joining(", "));
        return new Annotation(decision.time().toEpochMilli(), change, decision.time().toString());
    }

    /** The change per operator, e.g. {count=1→3, split=1→3}. */
    Map<String, String> changes() {
        Map<String, String> changes = new TreeMap<>();
        for (String part : change.split(", ")) {
            String[] opAndChange = part.split(" ", 2);
            changes.put(opAndChange[0], opAndChange[1]);
        }
        return changes;
    }
}
