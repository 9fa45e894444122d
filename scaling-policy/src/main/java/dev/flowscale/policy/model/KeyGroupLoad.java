package dev.flowscale.policy.model;

import java.util.List;
import java.util.Optional;

/**
 * How an operator's measured input spreads over its key groups, and so what share of it the busiest
 * of {@code q} instances takes at any parallelism: instance i owns the key groups {@link
 * KeyGroupRange#of}(i, q, K), exactly as the engine assigns them. Unlike the one-hot-spot model of
 * {@link HotKeyAnalysis#busiestShare(double, int, int)}, this reads the measured spread as it is:
 * forty words hashed over 128 key groups leave the busiest of seven instances a fifth of the input,
 * not a seventh, and a plan for a seventh drains the backlog at half the planned rate.
 */
public final class KeyGroupLoad {
    private final double[] shares;

    /** Busiest share per parallelism, computed once each (sizing asks the same q many times). */
    private final double[] busiest;

    private KeyGroupLoad(double[] shares) {
        this.shares = shares;
        this.busiest = new double[shares.length + 1];
    }

    /**
     * The load of measured per-key-group rates, in key-group order; empty when they carry no input
     * (nothing to read a spread from).
     */
    public static Optional<KeyGroupLoad> of(List<Double> keyGroupRates) {
        double total = 0;
        for (double r : keyGroupRates) {
            total += r;
        }
        if (keyGroupRates.isEmpty() || !(total > 0)) {
            return Optional.empty();
        }
        double[] shares = new double[keyGroupRates.size()];
        for (int g = 0; g < shares.length; g++) {
            shares[g] = keyGroupRates.get(g) / total;
        }
        return Optional.of(new KeyGroupLoad(shares));
    }

    /** The share of the input the busiest of {@code q} instances takes (q above K counts as K). */
    public double busiestShare(int q) {
        int p = Math.max(1, Math.min(q, shares.length));
        if (busiest[p] == 0) {
            double most = 0;
            for (int i = 0; i < p; i++) {
                KeyGroupRange range = KeyGroupRange.of(i, p, shares.length);
                double sum = 0;
                for (int g = range.start(); g < range.end(); g++) {
                    sum += shares[g];
                }
                most = Math.max(most, sum);
            }
            busiest[p] = most;
        }
        return busiest[p];
    }
}
