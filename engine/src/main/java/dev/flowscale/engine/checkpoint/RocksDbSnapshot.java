package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.RocksDbFile;
import java.util.List;
import java.util.Map;

/**
 * The keyed state of one RocksDB instance in an incremental checkpoint: the files of a RocksDB
 * checkpoint of its store, and the states (column families) they hold.
 *
 * @param store the id of the store that wrote them (prefix of its shared file names)
 * @param states state name to kind, one column family each
 * @param files every file of the RocksDB checkpoint; SST files are shared between checkpoints
 */
public record RocksDbSnapshot(
        String store, Map<String, StateDescriptor.Kind> states, List<RocksDbFile> files) {}
