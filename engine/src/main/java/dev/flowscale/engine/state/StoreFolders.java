package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where RocksDB stores are made: one folder per store in this process's working folder (see {@link
 * WorkingFolders}) of the state backend's local directory, or of {@code
 * java.io.tmpdir/flowscale-rocksdb-USER} without one.
 */
final class StoreFolders {
    private StoreFolders() {}

    /**
     * The folder that holds this process's stores of {@code config}: its own folder in the local
     * directory, made if missing.
     */
    static Path parent(StateBackendConfig config) throws IOException {
        return WorkingFolders.of(
                config.localDir() != null
                        ? config.localDir()
                        : Path.of(
                                System.getProperty("java.io.tmpdir"),
                                "flowscale-rocksdb-" + System.getProperty("user.name")));
    }

    /** A new, empty folder for store {@code name}. */
    static Path create(StateBackendConfig config, String name) {
        try {
            return Files.createTempDirectory(parent(config), "flowscale-rocksdb-" + name + "-");
        } catch (IOException e) {
            throw failure(config, e);
        }
    }

    /** A folder name for store {@code name} that nothing uses: RocksDB creates the folder. */
    static Path reserve(StateBackendConfig config, String name) {
        Path reserved = create(config, name);
        try {
            Files.delete(reserved);
            return reserved;
        } catch (IOException e) {
            throw failure(config, e);
        }
    }

    private static EngineException failure(StateBackendConfig config, IOException e) {
        return new EngineException(
                "cannot create a RocksDB folder under "
                        + config.localDir()
                        + " ("
                        + e.getMessage()
                        + "); set the state backend's local directory to a writable folder",
                e);
    }
}
