package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyGroupsTest {

    @Test
    void murmurHashMatchesFlinkOnKnownInputs() {
        // Flink's MathUtils.murmurHash is Murmur3-32 (seed 0) of the int, made non-negative.
        // Guava's Murmur3Hash32Test publishes hashInt(0) = 593689054, hashInt(42) = -1134849565,
        // hashInt(-42) = -189366624, hashInt(MIN) = -1718298732, hashInt(MAX) = -1653689534;
        // Flink negates the negative ones. murmurHash(1) was computed once with Flink's code.
        assertThat(KeyGroups.murmurHash(0)).isEqualTo(593689054);
        assertThat(KeyGroups.murmurHash(1)).isEqualTo(68075478);
        assertThat(KeyGroups.murmurHash(42)).isEqualTo(1134849565);
        assertThat(KeyGroups.murmurHash(-42)).isEqualTo(189366624);
        assertThat(KeyGroups.murmurHash(Integer.MIN_VALUE)).isEqualTo(1718298732);
        assertThat(KeyGroups.murmurHash(Integer.MAX_VALUE)).isEqualTo(1653689534);
    }

    @Test
    void murmurHashIsNonNegativeAndDeterministic() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            int code = random.nextInt();
            int hash = KeyGroups.murmurHash(code);
            assertThat(hash).isNotNegative().isEqualTo(KeyGroups.murmurHash(code));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 128, 1000})
    void rangesAreDisjointOrderedAndCoverEveryKeyGroup(int keyGroups) {
        for (int p = 1; p <= keyGroups; p++) {
            int next = 0;
            for (int i = 0; i < p; i++) {
                KeyGroupRange range = KeyGroups.rangeFor(i, keyGroups, p);
                if (!range.isEmpty()) {
                    assertThat(range.start()).as("p=%d i=%d", p, i).isEqualTo(next);
                    next = range.endInclusive() + 1;
                }
            }
            assertThat(next).as("p=%d covers all key groups", p).isEqualTo(keyGroups);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 128, 1000})
    void operatorIndexForAgreesWithRangeForEveryKeyGroup(int keyGroups) {
        for (int p = 1; p <= keyGroups; p++) {
            for (int i = 0; i < p; i++) {
                KeyGroupRange range = KeyGroups.rangeFor(i, keyGroups, p);
                assertThat(range.size()).as("p <= keyGroups leaves no instance idle").isPositive();
                for (int kg = range.start(); kg <= range.endInclusive(); kg++) {
                    // Plain comparison first: a million AssertJ calls would dominate the run.
                    if (KeyGroups.operatorIndexFor(kg, keyGroups, p) != i) {
                        assertThat(KeyGroups.operatorIndexFor(kg, keyGroups, p))
                                .as("keyGroups=%d p=%d kg=%d", keyGroups, p, kg)
                                .isEqualTo(i);
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 128, 1000})
    void everyKeyLandsOnTheInstanceWhoseRangeHoldsItsKeyGroup(int keyGroups) {
        List<Object> keys = sampleKeys();
        for (int candidate : new int[] {1, 2, 3, 5, keyGroups / 2 + 1, keyGroups}) {
            int p = Math.min(candidate, keyGroups);
            List<KeyGroupRange> ranges = new ArrayList<>();
            for (int i = 0; i < p; i++) {
                ranges.add(KeyGroups.rangeFor(i, keyGroups, p));
            }
            for (Object key : keys) {
                int kg = KeyGroups.keyGroupFor(key, keyGroups);
                int index = KeyGroups.operatorIndexForKey(key, keyGroups, p);
                assertThat(ranges.get(index).contains(kg)).as("key %s p=%d", key, p).isTrue();
            }
        }
    }

    @Test
    void keyGroupIsMurmurOfHashCodeModuloKeyGroups() {
        assertThat(KeyGroups.keyGroupFor(0, 128)).isEqualTo(593689054 % 128);
        assertThat(KeyGroups.keyGroupFor("word", 128))
                .isEqualTo(KeyGroups.murmurHash("word".hashCode()) % 128);
    }

    @Test
    void rejectsNullKeyNamingTheKeySelector() {
        assertThatThrownBy(() -> KeyGroups.keyGroupFor(null, 128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key selector returned null");
    }

    @Test
    void rejectsParallelismOutOfBounds() {
        assertThatThrownBy(() -> KeyGroups.rangeFor(0, 128, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism");
        assertThatThrownBy(() -> KeyGroups.checkParallelism(129, 128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism must be in [1, keyGroups=128]");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, (1 << 15) + 1})
    void rejectsKeyGroupsOutOfBounds(int keyGroups) {
        assertThatThrownBy(() -> KeyGroups.keyGroupFor("k", keyGroups))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyGroups must be in [1, 32768]");
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 128})
    void rejectsKeyGroupOutOfRange(int keyGroup) {
        assertThatThrownBy(() -> KeyGroups.operatorIndexFor(keyGroup, 128, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyGroup must be in [0, 127]");
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 4})
    void rejectsOperatorIndexOutOfRange(int operatorIndex) {
        assertThatThrownBy(() -> KeyGroups.rangeFor(operatorIndex, 128, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operatorIndex must be in [0, 3]");
    }

    @Test
    void acceptsTheUpperBound() {
        int max = KeyGroups.MAX_KEY_GROUPS;
        assertThat(KeyGroups.rangeFor(max - 1, max, max)).isEqualTo(KeyGroupRange.of(max - 1));
        assertThat(KeyGroups.operatorIndexFor(max - 1, max, 3)).isEqualTo(2);
    }

    private static List<Object> sampleKeys() {
        List<Object> keys = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 5_000; i++) {
            keys.add("key-" + random.nextInt());
            keys.add(random.nextInt());
        }
        return keys;
    }
}
