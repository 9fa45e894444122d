package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The keyed state of one operator instance, held per key group so that a rescale can move whole key
 * groups. The task sets the current key before each record; state objects read and write the
 * current key's entry in the current key group.
 */
public final class KeyedStateBackend {
    private final String operator;
    private final int keyGroups;
    private final KeyGroupRange range;
    private final Map<String, StateTable> tables = new LinkedHashMap<>();

    /**
     * State restored from a snapshot whose descriptor has not been registered yet, still encoded.
     */
    private final Map<String, RawTable> restored = new LinkedHashMap<>();

    private long changes;
    private long changesAtSnapshot = -1;
    private long snapshotId = -1;
    private Object currentKey;
    private int currentGroup;

    /** The current key's murmur hash: its key group and its heap entry both come from it. */
    private int currentHash;

    /** Entries in RocksDB instead of heap tables; null for the heap backend. */
    private final RocksDbKeyedStore store;

    private byte[] currentKeyBytes;

    public KeyedStateBackend(String operator, int keyGroups, KeyGroupRange range) {
        this(operator, keyGroups, range, null);
    }

    /**
     * A backend that keeps its entries in {@code store} (RocksDB), or on the heap if it is null;
     * the backend owns the store and closes it in {@link #close}.
     */
    public KeyedStateBackend(
            String operator, int keyGroups, KeyGroupRange range, RocksDbKeyedStore store) {
        this.operator = operator;
        this.keyGroups = keyGroups;
        this.range = range;
        this.store = store;
    }

    /** The RocksDB store holding this backend's entries; null on the heap backend. */
    public RocksDbKeyedStore store() {
        return store;
    }

    /** Releases the backend's native resources and local files (RocksDB); nothing on the heap. */
    public void close() {
        if (store != null) {
            store.close();
        }
    }

    public KeyGroupRange keyGroupRange() {
        return range;
    }

    public void setCurrentKey(Object key) {
        setCurrentKey(key, KeyGroups.keyHash(key));
    }

    /**
     * {@link #setCurrentKey(Object)} for a key whose {@link KeyGroups#keyHash hash} is known
     * already: the one computed to route its record to this instance.
     */
    public void setCurrentKey(Object key, int hash) {
        int group = hash % keyGroups;
        if (!range.contains(group)) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': key "
                            + key
                            + " is in key group "
                            + group
                            + ", which this instance ("
                            + range
                            + ") does not own; the key's hashCode must be the same "
                            + "on every instance (do not key by arrays or objects without hashCode)");
        }
        currentKey = key;
        currentHash = hash;
        currentKeyBytes = null;
        currentGroup = group - range.start();
    }

    /** The current key's key group minus the first key group of this instance's range. */
    public int currentKeyGroupIndex() {
        return currentGroup;
    }

    public Object currentKey() {
        return currentKey;
    }

    /** The table of a state, created on first use; a second registration must match the first. */
    public StateTable table(StateDescriptor<?> descriptor) {
        StateTable table =
                tables.computeIfAbsent(
                        descriptor.name(),
                        n ->
                                store == null
                                        ? decodeRestored(descriptor)
                                        : checkedColumn(descriptor));
        if (!table.descriptor().equals(descriptor)) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': state '"
                            + descriptor.name()
                            + "' is registered twice with different types ("
                            + table.descriptor()
                            + " vs "
                            + descriptor
                            + "); use one descriptor per name");
        }
        return table;
    }

    public Map<String, StateTable> tables() {
        return tables;
    }

    public String operator() {
        return operator;
    }

    /** The number of key groups of the job. */
    public int keyGroups() {
        return keyGroups;
    }

    /**
     * Whether this instance holds state {@code name}: registered, restored and not yet claimed, or
     * (on RocksDB) a column the store has, restored or copied in by a hand-over.
     */
    public boolean holds(String name) {
        return tables.containsKey(name)
                || restored.containsKey(name)
                || (store != null && store.states().containsKey(name));
    }

    /**
     * Visits every entry (key and decoded value) of a value or list state in this instance's key
     * groups, on either backend: on RocksDB by a scan of each key group's prefix, as nothing of it
     * is on the heap. Restores use it to rebuild what is kept in memory only (timer queues).
     */
    public void forEachEntry(StateTable table, BiConsumer<Object, Object> visitor) {
        if (store == null) {
            for (int i = 0; i < table.groups.length; i++) {
                table.own(i).forEach(visitor);
            }
            return;
        }
        if (table.descriptor.kind() == StateDescriptor.Kind.MAP) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': state '"
                            + table.descriptor.name()
                            + "' is a map; scan value or list states only");
        }
        range.forEachKeyGroup(group -> scanGroup(table, group, visitor));
    }

    private void scanGroup(StateTable table, int group, BiConsumer<Object, Object> visitor) {
        try {
            store.scan(
                    table.column,
                    RocksDbKeyedStore.prefix(group),
                    (suffix, value) -> {
                        visitor.accept(
                                StateCodec.read(
                                        new DataInputStream(new ByteArrayInputStream(suffix)),
                                        Object.class),
                                StateEncoding.decode(table.descriptor, value));
                        return true;
                    });
        } catch (IOException e) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': cannot read a key of state '"
                            + table.descriptor.name()
                            + "' in key group "
                            + group
                            + " ("
                            + e.getMessage()
                            + "); the local RocksDB state is corrupt",
                    e);
        }
    }

    /** Restored state not yet claimed by a descriptor; written back as is by snapshots. */
    public Map<String, RawTable> restoredTables() {
        return restored;
    }

    /**
     * Adds the restored entries of one state in one key group (this instance must own the group),
     * taking {@code entries} as they are: values are decoded objects, or encoded bytes that wait
     * for the state's descriptor.
     */
    public void restore(
            String stateName,
            StateDescriptor.Kind kind,
            int keyGroup,
            HashMap<Object, Object> entries) {
        if (!range.contains(keyGroup)) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': restored key group "
                            + keyGroup
                            + " is outside this instance's range "
                            + range);
        }
        if (store != null) {
            RocksDbStates.restore(store, store.column(stateName, kind), keyGroup, entries);
            return;
        }
        StateTable declared = tables.get(stateName);
        if (declared != null) {
            checkKind(stateName, declared.descriptor().kind(), kind);
            // own(): never merge into a shared original
            declared.own(keyGroup - range.start()).putAll(decoded(declared.descriptor, entries));
            return;
        }
        RawTable raw = restored.computeIfAbsent(stateName, n -> new RawTable(kind, range.size()));
        checkKind(stateName, raw.kind(), kind);
        HashMap<Object, Object>[] groups = raw.groups();
        int index = keyGroup - range.start();
        if (groups[index].isEmpty()) {
            groups[index] = entries;
        } else {
            groups[index].putAll(entries);
        }
    }

    private void checkKind(
            String stateName, StateDescriptor.Kind known, StateDescriptor.Kind kind) {
        if (known != kind) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': state '"
                            + stateName
                            + "' is both "
                            + known
                            + " and "
                            + kind
                            + " in the snapshot; the snapshot is corrupt");
        }
    }

    /**
     * Takes key group {@code keyGroup} from {@code previous} (a backend of the run a hand-over
     * rescale stopped) as a copy ({@link StateCopies}): a savepoint is being written from {@code
     * previous} while this backend changes its copy. The copy is made lazily, per key group and
     * state, when this backend first reads or writes that key group (copy on write, as Flink's heap
     * state tables do for snapshots): the hand-over itself copies and allocates nothing, so the job
     * is not down for copying the key groups nor for the collections their allocation would set
     * off, and a key group no record touches is never copied. Until then snapshots of this backend
     * read the original, which nothing changes any more.
     */
    public void adoptCopy(KeyedStateBackend previous, int keyGroup) {
        if (store != null || previous.store != null) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': key groups in RocksDB are not handed over in memory");
        }
        int from = keyGroup - previous.range.start();
        previous.tables
                .values()
                .forEach(t -> table(t.descriptor).share(keyGroup - range.start(), t.groups[from]));
        previous.restored.forEach(
                (name, raw) ->
                        restore(
                                name,
                                raw.kind(),
                                keyGroup,
                                StateCopies.copyRaw(raw.groups()[from])));
    }

    /** Notes that snapshot {@code checkpointId} holds this backend's state as it is now. */
    public void snapshotted(long checkpointId) {
        snapshotId = checkpointId;
        changesAtSnapshot = changes;
    }

    /** Whether snapshot {@code checkpointId} was this backend's last and nothing changed since. */
    public boolean unchangedSince(long checkpointId) {
        return snapshotId == checkpointId && changes == changesAtSnapshot;
    }

    private StateTable decodeRestored(StateDescriptor<?> descriptor) {
        StateTable table = new StateTable(descriptor, range.size());
        RawTable raw = restored.remove(descriptor.name());
        if (raw != null) {
            if (raw.kind() != descriptor.kind()) {
                throw new EngineException(
                        "operator '"
                                + operator
                                + "': state '"
                                + descriptor.name()
                                + "' is a "
                                + raw.kind()
                                + " in the snapshot but declared as "
                                + descriptor.kind()
                                + "; keep the state's kind or give the new state another name");
            }
            try {
                for (int i = 0; i < raw.groups().length; i++) {
                    table.groups[i].putAll(decoded(descriptor, raw.groups()[i]));
                }
            } catch (RuntimeException e) {
                throw RestoredValueCheck.unreadable(operator, descriptor, e);
            }
        }
        return table;
    }

    private StateTable checkedColumn(StateDescriptor<?> descriptor) {
        StateTable table =
                new StateTable(descriptor, store.column(descriptor.name(), descriptor.kind()));
        RestoredValueCheck.checkFirst(operator, descriptor, store, table.column, range);
        return table;
    }

    /** Decodes the entries still encoded, in place: the map becomes the table's own. */
    private static HashMap<Object, Object> decoded(
            StateDescriptor<?> descriptor, HashMap<Object, Object> group) {
        group.replaceAll(
                (key, value) ->
                        value instanceof byte[] bytes
                                ? StateEncoding.decode(descriptor, bytes)
                                : value);
        return group;
    }

    /**
     * Entries of one restored state not yet claimed by a descriptor, per key group of this
     * instance's range: a value is encoded bytes if it needs the descriptor's types to be decoded,
     * else already decoded.
     */
    public record RawTable(StateDescriptor.Kind kind, HashMap<Object, Object>[] groups) {
        @SuppressWarnings("unchecked")
        RawTable(StateDescriptor.Kind kind, int groupCount) {
            this(kind, new HashMap[groupCount]);
            for (int i = 0; i < groupCount; i++) {
                groups[i] = new HashMap<>();
            }
        }
    }

    Object get(StateTable table) {
        if (store != null) {
            byte[] bytes = store.get(table.column, currentKeyBytes());
            return bytes == null ? null : StateEncoding.decode(table.descriptor, bytes);
        }
        return table.own(currentGroup).get(currentKey, currentHash);
    }

    void put(StateTable table, Object value) {
        changes++;
        if (store != null) {
            store.put(
                    table.column,
                    currentKeyBytes(),
                    StateEncoding.encode(table.descriptor.kind(), value));
            return;
        }
        table.own(currentGroup).set(currentKey, currentHash, value);
    }

    /** Counts a change made other than by {@link #put} or {@link #remove}. */
    void changed() {
        changes++;
    }

    /**
     * The current key's key group of {@code table} as the table's own map, for access without
     * boxing ({@link LongValues}); null on RocksDB.
     */
    KeyGroupMap heapGroup(StateTable table) {
        return store == null ? table.own(currentGroup) : null;
    }

    /** The current key's {@link KeyGroups#keyHash hash}. */
    int currentHash() {
        return currentHash;
    }

    void remove(StateTable table) {
        changes++;
        if (store != null) {
            store.delete(table.column, currentKeyBytes());
            return;
        }
        table.own(currentGroup).remove(currentKey, currentHash);
    }

    /** The current key as RocksDB holds it: its key group, then its encoding. */
    byte[] currentKeyBytes() {
        if (currentKeyBytes == null) {
            currentKeyBytes = RocksDbStates.key(range.start() + currentGroup, currentKey);
        }
        return currentKeyBytes;
    }
}
