package dev.flowscale.engine.state;

import dev.flowscale.engine.api.StateDescriptor;
import java.util.Map;

/**
 * All entries of one state of a {@link KeyedStateBackend}: on the heap one {@link KeyGroupMap} per
 * key group of the instance's range; in RocksDB the state's column family.
 */
public final class StateTable {
    final StateDescriptor<?> descriptor;
    final KeyGroupMap[] groups;

    /** Which key groups are still a stopped backend's maps, copied on first access; or null. */
    private boolean[] shared;

    /** The state's column family when the backend is RocksDB; null on the heap. */
    final RocksDbKeyedStore.Column column;

    StateTable(StateDescriptor<?> descriptor, RocksDbKeyedStore.Column column) {
        this.descriptor = descriptor;
        this.groups = newGroups(descriptor, 0);
        this.column = column;
    }

    StateTable(StateDescriptor<?> descriptor, int groupCount) {
        this.descriptor = descriptor;
        this.groups = newGroups(descriptor, groupCount);
        this.column = null;
    }

    private static KeyGroupMap[] newGroups(StateDescriptor<?> descriptor, int count) {
        KeyGroupMap[] groups = new KeyGroupMap[count];
        for (int i = 0; i < count; i++) {
            groups[i] = KeyGroupMap.forState(descriptor);
        }
        return groups;
    }

    public StateDescriptor<?> descriptor() {
        return descriptor;
    }

    /**
     * The entries of the range's {@code index}-th key group (not the key group number), to read
     * only: it may still be the original a hand-over shares ({@link KeyedStateBackend#adoptCopy}).
     */
    public Map<Object, Object> group(int index) {
        return groups[index];
    }

    /** The {@code index}-th key group as this table's own map, copied first if still shared. */
    KeyGroupMap own(int index) {
        if (shared != null && shared[index]) {
            groups[index] = StateCopies.copy(descriptor, groups[index]);
            shared[index] = false;
        }
        return groups[index];
    }

    /**
     * Takes {@code original}, a stopped backend's key group, as the {@code index}-th key group, to
     * be copied on first access; merged as a copy at once if entries are already there.
     */
    void share(int index, KeyGroupMap original) {
        if (!groups[index].isEmpty()) {
            own(index).putAll(StateCopies.copy(descriptor, original));
            return;
        }
        if (shared == null) {
            shared = new boolean[groups.length];
        }
        groups[index] = original;
        shared[index] = true;
    }

    public int groupCount() {
        return groups.length;
    }
}
