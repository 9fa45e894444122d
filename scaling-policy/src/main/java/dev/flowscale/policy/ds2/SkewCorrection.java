package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.OperatorMetrics;

/**
 * DS2's aggregated true rate hides key skew: every instance still processes at capacity c while
 * busy, but the hottest instance saturates first. What the running configuration sustains is read
 * off the busiest instance's share h: c / h. Sizing other parallelisms for a hot spot is {@link
 * Capacities}' (with {@link dev.flowscale.policy.model.HotKeyAnalysis}'s key-group model).
 */
final class SkewCorrection {

    /** Shares this close to even are noise, not skew. */
    private static final double MIN_SKEW = 0.01;

    private SkewCorrection() {}

    /**
     * The input rate the operator sustains at its running parallelism when its hottest instance
     * saturates first: capacity per instance / the hottest instance's share of the input.
     */
    static double sustainableRate(OperatorMetrics m, double capacityPerInstance) {
        double all = capacityPerInstance * m.parallelism();
        if (skew(m) < MIN_SKEW) {
            return all;
        }
        return Math.min(all, capacityPerInstance / hottestShare(m));
    }

    /** The estimated skew s, or 0 when per-instance values are missing or parallelism is 1. */
    static double skew(OperatorMetrics m) {
        int p = m.instances().size();
        if (p < 2) {
            return 0;
        }
        double s = (hottestShare(m) * p - 1) / (p - 1);
        return Math.max(0, Math.min(1, s));
    }

    private static double hottestShare(OperatorMetrics m) {
        double total =
                m.instances().stream()
                        .mapToDouble(InstanceWindowRates::observedProcessingRate)
                        .sum();
        double max =
                m.instances().stream()
                        .mapToDouble(InstanceWindowRates::observedProcessingRate)
                        .max()
                        .orElse(0);
        return total > 0 ? max / total : 0;
    }
}
