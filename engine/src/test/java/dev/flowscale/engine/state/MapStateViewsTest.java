package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A map state's keys, values and emptiness are the current key's, alike on both backends. */
class MapStateViewsTest {
    private static final StateDescriptor<Integer> SEEN =
            StateDescriptor.map("seen", String.class, Integer.class);

    @TempDir Path dir;

    private KeyedStateBackend backend(StateBackendConfig.Kind kind) {
        return kind == StateBackendConfig.Kind.ROCKSDB
                ? RocksDbBackends.overAllKeyGroups(dir, "op-0")
                : new KeyedStateBackend(
                        "op",
                        RocksDbBackends.KEY_GROUPS,
                        new KeyGroupRange(0, RocksDbBackends.KEY_GROUPS - 1));
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void keysValuesAndIsEmptySeeOnlyTheCurrentKeysEntries(StateBackendConfig.Kind kind) {
        KeyedStateBackend backend = backend(kind);
        try {
            MapState<String, Integer> seen = KeyedStates.map(backend, backend.table(SEEN));
            backend.setCurrentKey("a");
            seen.put("x", 1);
            seen.put("y", 2);
            seen.put("z", 3);
            seen.remove("y");
            // "ab" starts with the bytes of "a" on RocksDB but is another key.
            backend.setCurrentKey("ab");
            seen.put("w", 10);

            backend.setCurrentKey("a");
            assertThat(seen.keys()).containsExactlyInAnyOrder("x", "z");
            assertThat(seen.values()).containsExactlyInAnyOrder(1, 3);
            assertThat(seen.isEmpty()).isFalse();

            backend.setCurrentKey("never-written");
            assertThat(seen.keys()).isEmpty();
            assertThat(seen.values()).isEmpty();
            assertThat(seen.isEmpty()).isTrue();

            backend.setCurrentKey("a");
            seen.remove("x");
            seen.remove("z");
            assertThat(seen.isEmpty()).as("every map key removed").isTrue();
            backend.setCurrentKey("ab");
            seen.clear();
            assertThat(seen.isEmpty()).as("cleared").isTrue();
            assertThat(seen.keys()).isEmpty();
        } finally {
            backend.close();
        }
    }
}
