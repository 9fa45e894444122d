package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import java.util.Optional;

/**
 * Key groups [start, end) owned by one operator instance. Assignment as in Flink (and the engine's
 * KeyGroups): instance i of p over K key groups owns [⌈i·K/p⌉, ⌈(i+1)·K/p⌉).
 */
public record KeyGroupRange(int start, int end) {

    public KeyGroupRange {
        if (start < 0 || end <= start) {
            throw new PolicyException(
                    "key group range ["
                            + start
                            + ", "
                            + end
                            + ") is empty or negative;"
                            + " use 0 <= start < end");
        }
    }

    /**
     * The key groups of instance {@code instance} of {@code parallelism} over {@code keyGroups}.
     */
    public static KeyGroupRange of(int instance, int parallelism, int keyGroups) {
        if (parallelism < 1 || parallelism > keyGroups || instance < 0 || instance >= parallelism) {
            throw new PolicyException(
                    "instance "
                            + instance
                            + " of parallelism "
                            + parallelism
                            + " over "
                            + keyGroups
                            + " key groups does not exist; use 0 <= instance < parallelism <= key groups");
        }
        return new KeyGroupRange(
                ceilDiv(instance * keyGroups, parallelism),
                ceilDiv((instance + 1) * keyGroups, parallelism));
    }

    /** Most key groups any instance of {@code parallelism} owns: ⌈K/p⌉. */
    public static int largestShare(int parallelism, int keyGroups) {
        return ceilDiv(keyGroups, parallelism);
    }

    public int size() {
        return end - start;
    }

    /**
     * The key groups in both ranges, e.g. to narrow a hot key group down over several parallelisms.
     */
    public Optional<KeyGroupRange> intersect(KeyGroupRange other) {
        int s = Math.max(start, other.start);
        int e = Math.min(end, other.end);
        return s < e ? Optional.of(new KeyGroupRange(s, e)) : Optional.empty();
    }

    private static int ceilDiv(int a, int b) {
        return -Math.floorDiv(-a, b);
    }

    @Override
    public String toString() {
        return "[" + start + ", " + end + ")";
    }
}
