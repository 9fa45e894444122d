package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.RocksDbKeyedStore.Column;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The column families of one {@link RocksDbKeyedStore}, one per state, in creation order, each with
 * the kind of its state. Safe to use from any thread; the store creates columns under its own lock
 * too, so that a new column never meets a checkpoint or a closing database.
 */
final class RocksDbColumns {
    private final RocksDB db;
    private final StoreOptions options;
    private final Path dir;
    private final Map<String, Column> columns = new LinkedHashMap<>();

    /**
     * The columns of {@code states} as RocksDB opened them: {@code handles} holds the default
     * column family's handle (closed here, as no state uses it), then one per state, in order.
     * {@code dir} is the store's folder, named in errors.
     */
    RocksDbColumns(
            RocksDB db,
            StoreOptions options,
            Map<String, StateDescriptor.Kind> states,
            List<ColumnFamilyHandle> handles,
            Path dir) {
        this.db = db;
        this.options = options;
        this.dir = dir;
        handles.get(0).close();
        int i = 1;
        for (Map.Entry<String, StateDescriptor.Kind> state : states.entrySet()) {
            columns.put(state.getKey(), new Column(handles.get(i++), state.getValue()));
        }
    }

    /** The column of a state, created on first use; a state keeps its kind. */
    synchronized Column column(String state, StateDescriptor.Kind kind) {
        Column column = columns.get(state);
        if (column == null) {
            try {
                column = new Column(db.createColumnFamily(options.descriptor(state)), kind);
                columns.put(state, column);
            } catch (RocksDBException e) {
                throw RocksDbKeyedStore.failure(
                        dir, "create a column family for state '" + state + "'", e);
            }
        }
        if (column.kind() != kind) {
            throw new EngineException(
                    "state '"
                            + state
                            + "' is both "
                            + column.kind()
                            + " and "
                            + kind
                            + "; use one kind per state name");
        }
        return column;
    }

    /** The column of {@code state}, or null if the store holds no such state. */
    synchronized Column existing(String state) {
        return columns.get(state);
    }

    /** The states held, in creation order, with their kinds. */
    synchronized Map<String, StateDescriptor.Kind> states() {
        Map<String, StateDescriptor.Kind> states = new LinkedHashMap<>();
        columns.forEach((name, c) -> states.put(name, c.kind()));
        return states;
    }

    /** The column families of the states held, in creation order. */
    synchronized List<ColumnFamilyHandle> handles() {
        return columns.values().stream().map(Column::handle).toList();
    }

    /** Closes every column family's handle (before the database closes). */
    synchronized void close() {
        columns.values().forEach(c -> c.handle().close());
        columns.clear();
    }
}
