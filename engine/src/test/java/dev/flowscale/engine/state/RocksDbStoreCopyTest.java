package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a RocksDB hand-over builds new stores from: a copy that starts as the store is and then goes
 * its own way, and a copy of whole key groups between stores.
 */
class RocksDbStoreCopyTest {
    private static final int GROUPS = RocksDbBackends.KEY_GROUPS;
    private static final StateDescriptor<Long> COUNT = StateDescriptor.value("count", Long.class);

    @TempDir Path dir;
    private KeyedStateBackend original;

    @BeforeEach
    void writeOneCountPerKey() {
        original = RocksDbBackends.overAllKeyGroups(dir, "op-0");
        ValueState<Long> count = KeyedStates.value(original, original.table(COUNT));
        for (long key = 0; key < 2_000; key++) {
            original.setCurrentKey(key);
            count.update(key);
        }
    }

    @AfterEach
    void closeTheOriginal() {
        original.close();
    }

    @Test
    void aCopyStartsWithTheStoresEntriesAndChangesApartFromIt() {
        StateBackendConfig config = StateBackendConfig.rocksDb().withLocalDir(dir);
        KeyedStateBackend copy = over(original.store().checkpoints().copy(config, "copy"));
        try {
            ValueState<Long> copied = KeyedStates.value(copy, copy.table(COUNT));
            ValueState<Long> kept = KeyedStates.value(original, original.table(COUNT));
            copy.setCurrentKey(42L);
            assertThat(copied.value()).isEqualTo(42L);
            copied.update(-1L);
            original.setCurrentKey(42L);
            assertThat(kept.value()).as("the original after the copy changed").isEqualTo(42L);
            kept.update(-2L);
            assertThat(copied.value()).as("the copy after the original changed").isEqualTo(-1L);
        } finally {
            copy.close();
        }
    }

    @Test
    void copyingKeyGroupsBringsExactlyTheirEntries() {
        KeyedStateBackend target =
                over(RocksDbKeyedStore.open(StateBackendConfig.rocksDb().withLocalDir(dir), "t"));
        try {
            target.store().copyKeyGroups(original.store(), 10, 20);
            for (int g = 0; g < GROUPS; g++) {
                int expected = g >= 10 && g <= 20 ? original.store().count("count", g) : 0;
                assertThat(target.store().count("count", g))
                        .as("key group " + g)
                        .isEqualTo(expected);
            }
            assertThat(original.store().count("count", 15)).isPositive();
        } finally {
            target.close();
        }
    }

    @Test
    void copiedKeyGroupsArriveAsAnIngestedFileNotThroughTheWriteBuffers() {
        KeyedStateBackend target =
                over(RocksDbKeyedStore.open(StateBackendConfig.rocksDb().withLocalDir(dir), "t"));
        try {
            target.store().copyKeyGroups(original.store(), 0, GROUPS - 1);
            assertThat(target.store().figures().memTableEntries()).isZero();
            assertThat(target.store().count("count", 7))
                    .isEqualTo(original.store().count("count", 7))
                    .isPositive();
        } finally {
            target.close();
        }
    }

    @Test
    void anIngestedFilesSumsAreMeasuredInTheBackground() throws Exception {
        KeyedStateBackend target =
                over(RocksDbKeyedStore.open(StateBackendConfig.rocksDb().withLocalDir(dir), "t"));
        try {
            target.store().copyKeyGroups(original.store(), 0, GROUPS - 1);
            Path folder = RocksDbBackends.workingFolder(dir).resolve(target.store().id());
            List<Path> ssts;
            try (Stream<Path> files = Files.list(folder)) {
                ssts = files.filter(p -> p.toString().endsWith(".sst")).toList();
            }
            assertThat(ssts).hasSize(1);
            String name = ssts.get(0).getFileName().toString();
            long bytes = Files.size(ssts.get(0));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (target.store().checkpoints().sumsOf(name, bytes) == null
                    && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            assertThat(target.store().checkpoints().sumsOf(name, bytes))
                    .isEqualTo(FileSums.of(ssts.get(0)));
        } finally {
            target.close();
        }
    }

    private static KeyedStateBackend over(RocksDbKeyedStore store) {
        return new KeyedStateBackend("op", GROUPS, new KeyGroupRange(0, GROUPS - 1), store);
    }
}
