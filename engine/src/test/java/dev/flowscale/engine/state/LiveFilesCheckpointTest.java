package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folder a RocksDB checkpoint leaves for its upload: the store's live files as they were at the
 * checkpoint, with nothing RocksDB's own checkpoint adds for a write-ahead log the store does not
 * keep, and a database opened on it holds exactly the state written before it.
 */
class LiveFilesCheckpointTest {
    private static final int GROUPS = RocksDbBackends.KEY_GROUPS;
    private static final StateDescriptor<Long> COUNT = StateDescriptor.value("count", Long.class);

    @TempDir Path dir;

    @Test
    void aCheckpointHoldsTheStateAtItsTimeAndNoLogFiles() throws Exception {
        KeyedStateBackend backend = RocksDbBackends.overAllKeyGroups(dir, "op-0");
        try {
            ValueState<Long> count = KeyedStates.value(backend, backend.table(COUNT));
            write(backend, count, 1L);
            backend.store().checkpoints().checkpoint();
            write(backend, count, 2L);
            Path checkpoint = backend.store().checkpoints().checkpoint();
            write(backend, count, 3L);
            List<String> names;
            try (Stream<Path> files = Files.list(checkpoint)) {
                names = files.map(p -> p.getFileName().toString()).sorted().toList();
            }
            assertThat(names).noneMatch(n -> n.endsWith(".log"));
            String manifest =
                    names.stream().filter(n -> n.startsWith("MANIFEST-")).findFirst().get();
            assertThat(Files.readString(checkpoint.resolve("CURRENT"), StandardCharsets.US_ASCII))
                    .isEqualTo(manifest + "\n");
            try (RocksDbKeyedStore copy =
                    RocksDbKeyedStore.openCopy(
                            checkpoint,
                            backend.store().states(),
                            StateBackendConfig.rocksDb().withLocalDir(dir))) {
                KeyedStateBackend restored =
                        new KeyedStateBackend("op", GROUPS, new KeyGroupRange(0, GROUPS - 1), copy);
                ValueState<Long> read = KeyedStates.value(restored, restored.table(COUNT));
                for (long key = 0; key < 2_000; key++) {
                    restored.setCurrentKey(key);
                    assertThat(read.value()).as("key " + key).isEqualTo(key * 2);
                }
            }
        } finally {
            backend.close();
        }
    }

    private static void write(KeyedStateBackend backend, ValueState<Long> count, long factor) {
        for (long key = 0; key < 2_000; key++) {
            backend.setCurrentKey(key);
            count.update(key * factor);
        }
    }
}
