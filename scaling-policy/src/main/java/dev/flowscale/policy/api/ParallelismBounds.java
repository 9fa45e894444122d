package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;

/** Inclusive bounds on an operator's parallelism. */
public record ParallelismBounds(int min, int max) {

    public static final ParallelismBounds UNBOUNDED = new ParallelismBounds(1, Integer.MAX_VALUE);

    public ParallelismBounds {
        Checks.positive(min, "min parallelism");
        Checks.positive(max, "max parallelism");
        if (min > max) {
            throw new PolicyException(
                    "min parallelism "
                            + min
                            + " exceeds max parallelism "
                            + max
                            + "; make min <= max");
        }
    }
}
