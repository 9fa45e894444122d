package dev.flowscale.engine.state;

/**
 * Key-group arithmetic, compatible with Flink's key-group assignment: a key maps to one of {@code
 * keyGroups} key groups, and each operator instance owns one contiguous range of them. Rescaling
 * moves whole key groups, so keyed state follows its keys. Pure functions; every argument is
 * checked and a bad one raises {@link IllegalArgumentException} naming the field and the fix.
 */
public final class KeyGroups {

    /** Number of key groups when an operator does not choose one. */
    public static final int DEFAULT_KEY_GROUPS = 128;

    /** Largest allowed number of key groups (Flink's bound). */
    public static final int MAX_KEY_GROUPS = 1 << 15;

    private KeyGroups() {}

    /**
     * The key group of {@code key}: {@code murmurHash(key.hashCode()) % keyGroups}.
     *
     * @throws IllegalArgumentException if the key is null or keyGroups is out of bounds
     */
    public static int keyGroupFor(Object key, int keyGroups) {
        checkKeyGroups(keyGroups);
        return keyHash(key) % keyGroups;
    }

    /**
     * {@code murmurHash(key.hashCode())}: the hash a key's key group is the remainder of.
     *
     * @throws IllegalArgumentException if the key is null
     */
    public static int keyHash(Object key) {
        if (key == null) {
            throw new IllegalArgumentException(
                    "key must not be null; the key selector returned null, make it return a key for every record");
        }
        return murmurHash(key.hashCode());
    }

    /** The index of the operator instance that owns {@code key}'s key group. */
    public static int operatorIndexForKey(Object key, int keyGroups, int parallelism) {
        checkParallelism(parallelism, keyGroups);
        return operatorIndexFor(keyGroupFor(key, keyGroups), keyGroups, parallelism);
    }

    /** The index of the operator instance that owns {@code keyGroup}. */
    public static int operatorIndexFor(int keyGroup, int keyGroups, int parallelism) {
        checkParallelism(parallelism, keyGroups);
        checkKeyGroup(keyGroup, keyGroups);
        return keyGroup * parallelism / keyGroups;
    }

    /**
     * The key groups owned by instance {@code operatorIndex} of {@code parallelism}. The ranges of
     * indices {@code 0..parallelism-1} are disjoint, ordered and cover every key group.
     */
    public static KeyGroupRange rangeFor(int operatorIndex, int keyGroups, int parallelism) {
        checkParallelism(parallelism, keyGroups);
        checkOperatorIndex(operatorIndex, parallelism);
        // Ceiling of the first group whose owner is operatorIndex under keyGroup*p/keyGroups;
        // products fit in int because keyGroups <= 2^15.
        int start = (operatorIndex * keyGroups + parallelism - 1) / parallelism;
        int end = ((operatorIndex + 1) * keyGroups - 1) / parallelism;
        return new KeyGroupRange(start, end);
    }

    /** Checks {@code 1 <= keyGroups <= MAX_KEY_GROUPS}. */
    public static void checkKeyGroups(int keyGroups) {
        if (keyGroups < 1 || keyGroups > MAX_KEY_GROUPS) {
            throw new IllegalArgumentException(
                    "keyGroups must be in [1, "
                            + MAX_KEY_GROUPS
                            + "] but was "
                            + keyGroups
                            + "; set keyGroups (the number of key groups) within these bounds");
        }
    }

    /** Checks keyGroups and {@code 1 <= parallelism <= keyGroups}. */
    public static void checkParallelism(int parallelism, int keyGroups) {
        checkKeyGroups(keyGroups);
        if (parallelism < 1 || parallelism > keyGroups) {
            throw new IllegalArgumentException(
                    "parallelism must be in [1, keyGroups="
                            + keyGroups
                            + "] but was "
                            + parallelism
                            + "; lower parallelism or raise keyGroups");
        }
    }

    /** Checks {@code 0 <= keyGroup < keyGroups}. */
    public static void checkKeyGroup(int keyGroup, int keyGroups) {
        checkKeyGroups(keyGroups);
        if (keyGroup < 0 || keyGroup >= keyGroups) {
            throw new IllegalArgumentException(
                    "keyGroup must be in [0, "
                            + (keyGroups - 1)
                            + "] for keyGroups="
                            + keyGroups
                            + " but was "
                            + keyGroup
                            + "; compute it with keyGroupFor(key, keyGroups)");
        }
    }

    /** Checks {@code 0 <= operatorIndex < parallelism}. */
    public static void checkOperatorIndex(int operatorIndex, int parallelism) {
        if (operatorIndex < 0 || operatorIndex >= parallelism) {
            throw new IllegalArgumentException(
                    "operatorIndex must be in [0, "
                            + (parallelism - 1)
                            + "] for parallelism="
                            + parallelism
                            + " but was "
                            + operatorIndex
                            + "; pass an instance index below the parallelism");
        }
    }

    /**
     * Flink's {@code MathUtils.murmurHash}: Murmur3 (32-bit, seed 0) of the four bytes of {@code
     * code}, made non-negative. It must stay bit-for-bit identical, or state written by
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
