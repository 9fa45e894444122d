package dev.flowscale.engine.state;

/**
 * Key-group arithmetic, compatible with Flink's key-group assignment: a key maps to one of
 * {@code maxParallelism} key groups, and each operator instance owns one contiguous range of
 * them. Rescaling moves whole key groups, so keyed state follows its keys. Pure functions;
 * every argument is checked and a bad one raises {@link IllegalArgumentException} naming the
 * field and the fix.
 */
public final class KeyGroups {

    /** Number of key groups when an operator does not choose one. */
    public static final int DEFAULT_MAX_PARALLELISM = 128;

    /** Largest allowed number of key groups (Flink's bound). */
    public static final int UPPER_BOUND_MAX_PARALLELISM = 1 << 15;

    private KeyGroups() {
    }

    /**
     * The key group of {@code key}: {@code murmurHash(key.hashCode()) % maxParallelism}.
     *
     * @throws IllegalArgumentException if the key is null or maxParallelism is out of bounds
     */
    public static int keyGroupFor(Object key, int maxParallelism) {
        if (key == null) {
            throw new IllegalArgumentException(
                    "key must not be null; the key selector returned null, make it return a key for every record");
        }
        checkMaxParallelism(maxParallelism);
        return murmurHash(key.hashCode()) % maxParallelism;
    }

    /** The index of the operator instance that owns {@code key}'s key group. */
    public static int operatorIndexForKey(Object key, int maxParallelism, int parallelism) {
        checkParallelism(parallelism, maxParallelism);
        return operatorIndexFor(keyGroupFor(key, maxParallelism), maxParallelism, parallelism);
    }

    /** The index of the operator instance that owns {@code keyGroup}. */
    public static int operatorIndexFor(int keyGroup, int maxParallelism, int parallelism) {
        checkParallelism(parallelism, maxParallelism);
        checkKeyGroup(keyGroup, maxParallelism);
        return keyGroup * parallelism / maxParallelism;
    }

    /**
     * The key groups owned by instance {@code operatorIndex} of {@code parallelism}. The ranges
     * of indices {@code 0..parallelism-1} are disjoint, ordered and cover every key group.
     */
    public static KeyGroupRange rangeFor(int operatorIndex, int maxParallelism, int parallelism) {
        checkParallelism(parallelism, maxParallelism);
        checkOperatorIndex(operatorIndex, parallelism);
        // Ceiling of the first group whose owner is operatorIndex under keyGroup*p/maxP;
        // products fit in int because maxParallelism <= 2^15.
        int start = (operatorIndex * maxParallelism + parallelism - 1) / parallelism;
        int end = ((operatorIndex + 1) * maxParallelism - 1) / parallelism;
        return new KeyGroupRange(start, end);
    }

    /** Checks {@code 1 <= maxParallelism <= UPPER_BOUND_MAX_PARALLELISM}. */
    public static void checkMaxParallelism(int maxParallelism) {
        if (maxParallelism < 1 || maxParallelism > UPPER_BOUND_MAX_PARALLELISM) {
            throw new IllegalArgumentException("maxParallelism must be in [1, "
                    + UPPER_BOUND_MAX_PARALLELISM + "] but was " + maxParallelism
                    + "; set maxParallelism (the number of key groups) within these bounds");
        }
    }

    /** Checks maxParallelism and {@code 1 <= parallelism <= maxParallelism}. */
    public static void checkParallelism(int parallelism, int maxParallelism) {
        checkMaxParallelism(maxParallelism);
        if (parallelism < 1 || parallelism > maxParallelism) {
            throw new IllegalArgumentException("parallelism must be in [1, maxParallelism="
                    + maxParallelism + "] but was " + parallelism
                    + "; lower parallelism or raise maxParallelism");
        }
    }

    /** Checks {@code 0 <= keyGroup < maxParallelism}. */
    public static void checkKeyGroup(int keyGroup, int maxParallelism) {
        checkMaxParallelism(maxParallelism);
        if (keyGroup < 0 || keyGroup >= maxParallelism) {
            throw new IllegalArgumentException("keyGroup must be in [0, " + (maxParallelism - 1)
                    + "] for maxParallelism=" + maxParallelism + " but was " + keyGroup
                    + "; compute it with keyGroupFor(key, maxParallelism)");
        }
    }

    /** Checks {@code 0 <= operatorIndex < parallelism}. */
    public static void checkOperatorIndex(int operatorIndex, int parallelism) {
        if (operatorIndex < 0 || operatorIndex >= parallelism) {
            throw new IllegalArgumentException("operatorIndex must be in [0, " + (parallelism - 1)
                    + "] for parallelism=" + parallelism + " but was " + operatorIndex
                    + "; pass an instance index below the parallelism");
        }
    }

    /**
     * Flink's {@code MathUtils.murmurHash}: Murmur3 (32-bit, seed 0) of the four bytes of
     * {@code code}, made non-negative. It must stay bit-for-bit identical, or state written by
     * Flink-compatible key groups lands in the wrong group.
     */
    public static int murmurHash(int code) {
        int h = code * 0xcc9e2d51;
        h = Integer.rotateLeft(h, 15) * 0x1b873593;
        h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
        h ^= 4; // length of the input in bytes
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        if (h >= 0) {
            return h;
        }
        return h != Integer.MIN_VALUE ? -h : 0;
    }
}
