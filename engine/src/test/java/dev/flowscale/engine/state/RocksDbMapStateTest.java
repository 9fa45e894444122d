package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.checkpoint.InstanceStateFile;
import dev.flowscale.engine.checkpoint.KeyGroupBlocks;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A map state on RocksDB keeps one entry per map key: each operation touches the map keys it names,
 * and snapshots still hold one map per key, the same on both backends.
 */
class RocksDbMapStateTest {
    private static final int GROUPS = RocksDbBackends.KEY_GROUPS;
    private static final StateDescriptor<Integer> SEEN =
            StateDescriptor.map("seen", String.class, Integer.class);
    private static final StateDescriptor<Payload> PAYLOADS =
            StateDescriptor.map("payloads", Long.class, Payload.class);

    /** Counts its decodes: a map value that is not a built-in type is read through Jackson. */
    record Payload(String text) {
        static final AtomicInteger DECODED = new AtomicInteger();

        @JsonCreator
        static Payload decoded(@JsonProperty("text") String text) {
            DECODED.incrementAndGet();
            return new Payload(text);
        }
    }

    @TempDir Path dir;
    private KeyedStateBackend rocks;

    @BeforeEach
    void openARocksDbBackendOverAllKeyGroups() {
        rocks = rocksDb("op-0");
    }

    @AfterEach
    void closeTheBackend() {
        rocks.close();
    }

    @Test
    void eachMapKeyIsReadWrittenAndRemovedOnItsOwn() {
        MapState<String, Integer> seen = KeyedStates.map(rocks, rocks.table(SEEN));
        rocks.setCurrentKey("a");
        seen.put("x", 1);
        seen.put("y", 2);
        seen.put("z", null);
        // "ab" starts with the bytes of "a" but is another key: its entries stay apart.
        rocks.setCurrentKey("ab");
        seen.put("x", 10);
        rocks.setCurrentKey("a");
        seen.remove("y");
        seen.put("x", 3);

        assertThat(seen.get("x")).isEqualTo(3);
        assertThat(seen.get("y")).isNull();
        assertThat(seen.contains("z")).isTrue();
        assertThat(seen.contains("y")).isFalse();
        Map<String, Integer> expected = new HashMap<>();
        expected.put("x", 3);
        expected.put("z", null);
        assertThat(seen.entries()).isEqualTo(expected);

        seen.clear();
        assertThat(seen.entries()).isEmpty();
        assertThat(seen.get("x")).isNull();
        rocks.setCurrentKey("ab");
        assertThat(seen.entries()).isEqualTo(Map.of("x", 10));
    }

    @Test
    void aGetOrPutInALargeMapDecodesOnlyTheEntryItNames() {
        MapState<Long, Payload> payloads = bigMap(5_000);

        payloads.put(5_000L, new Payload("one more"));
        assertThat(payloads.get(1_234L)).isEqualTo(new Payload("payload-1234"));
        assertThat(payloads.contains(4_999L)).isTrue();
        payloads.remove(7L);

        // The whole-map layout decoded all 5,000 values on each call.
        assertThat(Payload.DECODED.get()).isEqualTo(1);
        assertThat(payloads.entries()).hasSize(5_000);
        assertThat(Payload.DECODED.get()).isEqualTo(1 + 5_000);
    }

    @Test
    void keysAndIsEmptyDecodeNoValueAndValuesDecodeEachOnce() {
        MapState<Long, Payload> payloads = bigMap(1_000);

        assertThat(payloads.keys()).hasSize(1_000).contains(0L, 999L);
        assertThat(payloads.isEmpty()).isFalse();
        assertThat(Payload.DECODED.get()).as("values decoded by keys() and isEmpty()").isZero();
        assertThat(payloads.values()).hasSize(1_000).contains(new Payload("payload-500"));
        assertThat(Payload.DECODED.get()).isEqualTo(1_000);
    }

    @Test
    void aRocksDbSnapshotRestoresOnTheHeapAndBackWithEveryMapKey() {
        MapState<String, Integer> seen = KeyedStates.map(rocks, rocks.table(SEEN));
        Map<String, Map<String, Integer>> written = new HashMap<>();
        for (int key = 0; key < 300; key++) {
            rocks.setCurrentKey("k" + key);
            for (int m = 0; m <= key % 7; m++) {
                seen.put("m" + m, key * 10 + m);
                written.computeIfAbsent("k" + key, k -> new HashMap<>()).put("m" + m, key * 10 + m);
            }
        }
        KeyedStateBackend heap = new KeyedStateBackend("op", GROUPS, all());
        KeyGroupBlocks.restoreInto(heap, blocks(rocks), String.class);
        assertThat(mapsOf(heap, written.keySet())).isEqualTo(written);

        try (Closing again = new Closing(rocksDb("op-1"))) {
            KeyGroupBlocks.restoreInto(again.backend, blocks(heap), String.class);
            assertThat(mapsOf(again.backend, written.keySet())).isEqualTo(written);
        }
    }

    @Test
    void aKeyGroupRangeDeleteDropsEveryMapKeyOfItsKeys() {
        MapState<String, Integer> seen = KeyedStates.map(rocks, rocks.table(SEEN));
        for (int key = 0; key < 500; key++) {
            rocks.setCurrentKey("k" + key);
            seen.put("a", key);
            seen.put("b", key);
        }
        int group = KeyGroups.keyGroupFor("k1", GROUPS);
        int keysInGroup = rocks.store().count("seen", group);
        assertThat(keysInGroup).isPositive();

        rocks.store().deleteKeyGroups(group, group);

        assertThat(rocks.store().count("seen", group)).isZero();
        rocks.setCurrentKey("k1");
        assertThat(seen.entries()).isEmpty();
        int other = (group + 1) % GROUPS;
        assertThat(rocks.store().count("seen", other)).isPositive();
    }

    /** Key "big" with {@code size} payloads, its decode count reset. */
    private MapState<Long, Payload> bigMap(int size) {
        MapState<Long, Payload> payloads = KeyedStates.map(rocks, rocks.table(PAYLOADS));
        rocks.setCurrentKey("big");
        for (long i = 0; i < size; i++) {
            payloads.put(i, new Payload("payload-" + i));
        }
        Payload.DECODED.set(0);
        return payloads;
    }

    private Map<String, Map<String, Integer>> mapsOf(
            KeyedStateBackend backend, Iterable<String> keys) {
        MapState<String, Integer> state = KeyedStates.map(backend, backend.table(SEEN));
        Map<String, Map<String, Integer>> maps = new HashMap<>();
        for (String key : keys) {
            backend.setCurrentKey(key);
            maps.put(key, new HashMap<>(state.entries()));
        }
        return maps;
    }

    private static Map<Integer, byte[]> blocks(KeyedStateBackend backend) {
        Map<Integer, byte[]> blocks = new HashMap<>();
        for (int g = 0; g < GROUPS; g++) {
            blocks.put(g, InstanceStateFile.keyGroupBlock(backend, g));
        }
        return blocks;
    }

    private KeyedStateBackend rocksDb(String name) {
        return RocksDbBackends.overAllKeyGroups(dir, name);
    }

    private static KeyGroupRange all() {
        return new KeyGroupRange(0, GROUPS - 1);
    }

    /** Closes a second backend at the end of a try block. */
    private record Closing(KeyedStateBackend backend) implements AutoCloseable {
        @Override
        public void close() {
            backend.close();
        }
    }
}
