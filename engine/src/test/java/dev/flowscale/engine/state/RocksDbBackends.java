package dev.flowscale.engine.state;

import java.io.IOException;
import java.nio.file.Path;

/** Keyed backends on RocksDB for tests. */
public final class RocksDbBackends {
    /** Key groups of the job in these tests. */
    public static final int KEY_GROUPS = 128;

    private RocksDbBackends() {}

    /** This process's folder under {@code local}, where its stores' folders are. */
    public static Path workingFolder(Path local) throws IOException {
        return RocksDbKeyedStore.localParent(StateBackendConfig.rocksDb().withLocalDir(local));
    }

    /**
     * A backend of operator "op" owning every key group, its store in a new folder of {@code
     * local}.
     */
    public static KeyedStateBackend overAllKeyGroups(Path local, String store) {
        StateBackendConfig config = StateBackendConfig.rocksDb().withLocalDir(local);
        return new KeyedStateBackend(
                "op",
                KEY_GROUPS,
                new KeyGroupRange(0, KEY_GROUPS - 1),
                RocksDbKeyedStore.open(config, store));
    }
}
