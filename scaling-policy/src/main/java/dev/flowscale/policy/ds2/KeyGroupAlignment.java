package dev.flowscale.policy.ds2;

import dev.flowscale.policy.PolicyException;

/**
 * Prefers parallelism that divides the number of key groups evenly, so every instance owns the same
 * number of key groups and none is hotter by construction.
 */
public final class KeyGroupAlignment {

    private KeyGroupAlignment() {}

    /**
     * The smallest parallelism q ≥ p that divides {@code keyGroups}, provided q ≤ p × (1 +
     * maxIncrease) and q ≤ upperBound; otherwise p itself.
     */
    public static int align(int p, int keyGroups, double maxIncrease, int upperBound) {
        if (p < 1 || keyGroups < 1 || maxIncrease < 0) {
            throw new PolicyException(
                    "cannot align parallelism "
                            + p
                            + " to "
                            + keyGroups
                            + " key groups with max increase "
                            + maxIncrease
                            + "; all must be positive");
        }
        int limit =
                (int) Math.min(Math.min(upperBound, keyGroups), Math.floor(p * (1 + maxIncrease)));
        for (int q = p; q <= limit; q++) {
            if (keyGroups % q == 0) {
                return q;
            }
        }
        return p;
    }
}
