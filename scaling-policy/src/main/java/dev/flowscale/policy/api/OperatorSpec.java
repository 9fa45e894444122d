package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;

/**
 * One operator of a job: its id, current parallelism and its number of key groups (parallelism can
 * never exceed it; the autoscaler's max parallelism is a separate bound, see {@link
 * ParallelismBounds}).
 *
 * @param splits for a source whose useful parallelism its splits bound (a Kafka topic's
 *     partitions), how many it has; 0 where splits bound nothing. The policy never plans more
 *     instances than splits (an instance beyond them would read nothing), but a job may run with
 *     more.
 */
public record OperatorSpec(String id, int parallelism, int keyGroups, int splits) {

    /** The engine's default number of key groups. */
    public static final int DEFAULT_KEY_GROUPS = 128;

    public OperatorSpec {
        Checks.notBlank(id, "operator id");
        Checks.positive(parallelism, "operator '" + id + "' parallelism");
        Checks.positive(keyGroups, "operator '" + id + "' keyGroups");
        if (splits < 0) {
            throw new PolicyException(
                    "operator '" + id + "' splits " + splits + " is negative; use 0 for no bound");
        }
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

    /** An operator whose splits bound nothing. */
    public OperatorSpec(String id, int parallelism, int keyGroups) {
        this(id, parallelism, keyGroups, 0);
    }

    public static OperatorSpec of(String id, int parallelism) {
        return new OperatorSpec(id, parallelism, DEFAULT_KEY_GROUPS);
    }

    public OperatorSpec withParallelism(int newParallelism) {
        return new OperatorSpec(id, newParallelism, keyGroups, splits);
    }

    /** This operator bounded by {@code count} splits (0: by none). */
    public OperatorSpec withSplits(int count) {
        return new OperatorSpec(id, parallelism, keyGroups, count);
    }

    /** The most instances that can all do work: the key groups, and the splits where they bound. */
    public int maxUsefulParallelism() {
        return splits > 0 ? Math.min(keyGroups, splits) : keyGroups;
    }
}
