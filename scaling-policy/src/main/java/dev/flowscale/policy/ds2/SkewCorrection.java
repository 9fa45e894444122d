package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.InstanceMetrics;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.List;

/**
 * DS2's aggregated true rate hides key skew: every instance still processes at capacity c while
 * busy, but the hottest instance saturates first. Model: one instance receives the share
 * s + (1 - s) / p of the input. The share h of the busiest instance at the current parallelism p
 * gives s = (h·p - 1) / (p - 1); the smallest q with r · (s + (1 - s) / q) ≤ c · utilization is
 * q = (1 - s) · r / (c · utilization - s · r).
 */
final class SkewCorrection {

    /** Shares this close to even are noise, not skew. */
    private static final double MIN_SKEW = 0.01;

    private SkewCorrection() {
    }

    static int correct(OperatorMetrics m, Ds2Formula.Estimate e, int p, double utilization, List<String> reasons) {
        double skew = skew(m);
        double r = e.targetInputRate();
        double c = e.capacityPerInstance() * utilization;
        if (skew < MIN_SKEW || r == 0) {
            return p;
        }
        if (c <= skew * r) {
            reasons.add(String.format("key skew %.2f: the hot instance alone must take %.1f rec/s, more than its"
                    + " capacity %.1f; no parallelism sustains the target", skew, skew * r, c));
            return p;
        }
        int q = Ds2Formula.ceil((1 - skew) * r / (c - skew * r));
        if (q <= p) {
            return p;
        }
        reasons.add(String.format("key skew %.2f (hottest instance %.0f %% of the input at parallelism %d):"
                + " raised to %d so the hot instance keeps up", skew, 100 * hottestShare(m), m.parallelism(), q));
        return q;
    }

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
        double total = m.instances().stream().mapToDouble(InstanceMetrics::observedProcessingRate).sum();
        double max = m.instances().stream().mapToDouble(InstanceMetrics::observedProcessingRate).max().orElse(0);
        return total > 0 ? max / total : 0;
    }
}
