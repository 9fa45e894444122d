package dev.flowscale.policy.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the policy may remember: earlier decisions (oldest first) and rescales (oldest first), and a
 * compact log of the sources' offered rates over the last days ({@link SourceRateLog}, empty when
 * none was kept). The autoscaler keeps all three bounded.
 */
public record ScalingHistory(
        List<ScalingDecision> decisions, List<RescaleRecord> rescales, SourceRateLog sourceRates) {

    public ScalingHistory {
        decisions = List.copyOf(decisions);
        rescales = List.copyOf(rescales);
        Checks.notNull(sourceRates, "history source rates (use SourceRateLog.EMPTY)");
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

    /** Duration of the most recent finished rescale, if any. */
    public Optional<Duration> lastRescaleDuration() {
        for (int i = rescales.size() - 1; i >= 0; i--) {
            Optional<Duration> d = rescales.get(i).duration();
            if (d.isPresent()) {
                return d;
            }
        }
        return Optional.empty();
    }
}
