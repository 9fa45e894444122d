package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;

/**
 * One operator of a job: its id, current parallelism and its number of key groups (parallelism can
 * never exceed it; the autoscaler's max parallelism is a separate bound, see {@link
 * ParallelismBounds}).
 */
public record OperatorSpec(String id, int parallelism, int keyGroups) {

    /** The engine's default number of key groups. */
    public static final int DEFAULT_KEY_GROUPS = 128;

    public OperatorSpec {
        Checks.notBlank(id, "operator id");
        Checks.positive(parallelism, "operator '" + id + "' parallelism");
        Checks.positive(keyGroups, "operator '" + id + "' keyGroups");
        if (parallelism > keyGroups) {
            throw new PolicyException(
                    "operator '"
                            + id
                            + "' parallelism "
                            + parallelism
                            + " is more than its "
                            + keyGroups
                            + " key groups; lower the parallelism or raise keyGroups");
        }
    }

    public static OperatorSpec of(String id, int parallelism) {
        return new OperatorSpec(id, parallelism, DEFAULT_KEY_GROUPS);
    }

    public OperatorSpec withParallelism(int newParallelism) {
        return new OperatorSpec(id, newParallelism, keyGroups);
    }
}
