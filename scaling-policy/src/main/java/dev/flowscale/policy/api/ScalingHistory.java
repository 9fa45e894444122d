package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.util.List;
import java.util.Optional;

/**
 * What the policy may remember: earlier decisions (oldest first) and rescales (oldest first), a
 * compact log of the sources' offered rates over the last days ({@link SourceRateLog}, empty when
 * none was kept), and the index of what the policy reads per operator from the decisions ({@link
 * HistoryIndex}), which the loop keeps as it adds decisions. The autoscaler keeps all bounded.
 */
public record ScalingHistory(
        List<ScalingDecision> decisions,
        List<RescaleRecord> rescales,
        SourceRateLog sourceRates,
        HistoryIndex index) {

    public ScalingHistory {
        decisions = List.copyOf(decisions);
        rescales = List.copyOf(rescales);
        Checks.notNull(sourceRates, "history source rates (use SourceRateLog.EMPTY)");
        if (!Checks.notNull(index, "history index").covers(decisions)) {
            throw new PolicyException(
                    "history index does not cover the history's "
                            + decisions.size()
                            + " decisions; build it from them (HistoryIndex.of) or leave it out");
        }
    }

    /** A history whose index is built from its decisions. */
    public ScalingHistory(
            List<ScalingDecision> decisions,
            List<RescaleRecord> rescales,
            SourceRateLog sourceRates) {
        this(decisions, rescales, sourceRates, HistoryIndex.of(decisions));
    }

    /** A history without a source rate log. */
    public ScalingHistory(List<ScalingDecision> decisions, List<RescaleRecord> rescales) {
        this(decisions, rescales, SourceRateLog.EMPTY);
    }

    public static ScalingHistory empty() {
        return new ScalingHistory(List.of(), List.of());
    }

    public Optional<RescaleRecord> lastRescale() {
        return rescales.isEmpty()
                ? Optional.empty()
                : Optional.of(rescales.get(rescales.size() - 1));
    }

    public boolean rescaleInProgress() {
        return lastRescale().map(RescaleRecord::inProgress).orElse(false);
    }
}
