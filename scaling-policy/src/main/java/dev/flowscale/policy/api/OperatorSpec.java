package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;

/**
 * One operator of a job: its id, current parallelism and max parallelism (the number of key
 * groups; parallelism can never exceed it).
 */
public record OperatorSpec(String id, int parallelism, int maxParallelism) {

    /** The engine's default number of key groups. */
    public static final int DEFAULT_MAX_PARALLELISM = 128;

    public OperatorSpec {
        Checks.notBlank(id, "operator id");
        Checks.positive(parallelism, "operator '" + id + "' parallelism");
        Checks.positive(maxParallelism, "operator '" + id + "' maxParallelism");
        if (parallelism > maxParallelism) {
            throw new PolicyException("operator '" + id + "' parallelism " + parallelism
                    + " exceeds its maxParallelism " + maxParallelism
                    + "; lower the parallelism or raise maxParallelism");
        }
    }

    public static OperatorSpec of(String id, int parallelism) {
        return new OperatorSpec(id, parallelism, DEFAULT_MAX_PARALLELISM);
    }

    public OperatorSpec withParallelism(int newParallelism) {
        return new OperatorSpec(id, newParallelism, maxParallelism);
    }
}
