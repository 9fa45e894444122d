package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Env;
import org.rocksdb.Priority;

/** Value, list and map state kept in RocksDB behave as on the heap, per key and key group. */
class RocksDbKeyedStateTest {
    private static final StateDescriptor<Long> COUNT = StateDescriptor.value("count", Long.class);
    private static final StateDescriptor<String> WORDS =
            StateDescriptor.list("words", String.class);
    private static final StateDescriptor<Integer> SEEN =
            StateDescriptor.map("seen", String.class, Integer.class);

    @TempDir Path dir;
    private KeyedStateBackend backend;

    @BeforeEach
    void openABackendOverAllKeyGroups() {
        StateBackendConfig config = StateBackendConfig.rocksDb().withLocalDir(dir);
        backend =
                new KeyedStateBackend(
                        "op",
                        128,
                        new KeyGroupRange(0, 127),
                        RocksDbKeyedStore.open(config, "op-0"));
    }

    @AfterEach
    void closeTheBackend() {
        backend.close();
    }

    @Test
    void storesOfOneProcessFlushInParallelAtACheckpoint() {
        // RocksDB's flush pool is one per process, one thread with the defaults: the stores of a
        // job would flush one after the other at every checkpoint barrier.
        assertThat(Env.getDefault().getBackgroundThreads(Priority.HIGH))
                .isEqualTo(NativeRocksDb.FLUSH_THREADS)
                .isGreaterThanOrEqualTo(2);
    }

    @Test
    void valueStateIsPerKeyAndClears() {
        ValueState<Long> count = KeyedStates.value(backend, backend.table(COUNT));
        backend.setCurrentKey("a");
        count.update(1L);
        backend.setCurrentKey("b");
        assertThat(count.value()).isNull();
        count.update(7L);
        backend.setCurrentKey("a");
        assertThat(count.value()).isEqualTo(1L);
        count.clear();
        assertThat(count.value()).isNull();
    }

    @Test
    void listAndMapChangesAreWrittenBack() {
        ListState<String> words = KeyedStates.list(backend, backend.table(WORDS));
        MapState<String, Integer> seen = KeyedStates.map(backend, backend.table(SEEN));
        backend.setCurrentKey(42L);
        words.add("x");
        words.add("y");
        seen.put("x", 1);
        seen.put("y", 2);
        seen.remove("x");
        backend.setCurrentKey(43L);
        words.add("z");
        backend.setCurrentKey(42L);
        assertThat(words.get()).containsExactly("x", "y");
        assertThat(seen.entries()).isEqualTo(Map.of("y", 2));
        assertThat(seen.contains("x")).isFalse();
        seen.remove("y");
        assertThat(seen.entries()).isEmpty();
        words.update(List.of());
        assertThat(words.get()).isEmpty();
    }

    @Test
    void aKeyGroupRangeIsCountedAndDeletedAsOneRange() {
        ValueState<Long> count = KeyedStates.value(backend, backend.table(COUNT));
        int[] perGroup = new int[128];
        for (long key = 0; key < 2_000; key++) {
            backend.setCurrentKey(key);
            count.update(key);
            perGroup[KeyGroups.keyGroupFor(key, 128)]++;
        }
        RocksDbKeyedStore store = backend.store();
        assertThat(store.count("count", 5)).isEqualTo(perGroup[5]);

        store.deleteKeyGroups(0, 63);

        assertThat(store.count("count", 5)).isZero();
        assertThat(store.count("count", 64)).isEqualTo(perGroup[64]);
        assertThat(store.figures().memoryBytes()).isPositive();
    }

    @Test
    void closingDeletesTheLocalFolder() throws Exception {
        backend.setCurrentKey("a");
        KeyedStates.value(backend, backend.table(COUNT)).update(1L);
        Path own = RocksDbBackends.workingFolder(dir);
        assertThat(Files.list(own).filter(Files::isDirectory)).hasSize(1);
        backend.close();
        assertThat(Files.list(own).filter(Files::isDirectory)).isEmpty();
    }
}
