package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The keyed state of one operator instance, held per key group so that a rescale can move
 * whole key groups. The task sets the current key before each record; state objects read and
 * write the current key's entry in the current key group.
 */
public final class KeyedStateBackend {
    private final String operator;
    private final int maxParallelism;
    private final KeyGroupRange range;
    private final Map<String, StateTable> tables = new LinkedHashMap<>();
    private Object currentKey;
    private int currentGroup;

    public KeyedStateBackend(String operator, int maxParallelism, KeyGroupRange range) {
        this.operator = operator;
        this.maxParallelism = maxParallelism;
        this.range = range;
    }

    public KeyGroupRange keyGroupRange() {
        return range;
    }

    public void setCurrentKey(Object key) {
        int group = KeyGroups.keyGroupFor(key, maxParallelism);
        if (!range.contains(group)) {
            throw new EngineException("operator '" + operator + "': key " + key + " is in key group " + group
                    + ", which this instance (" + range + ") does not own; the key's hashCode must be the same "
                    + "on every instance (do not key by arrays or objects without hashCode)");
        }
        currentKey = key;
        currentGroup = group - range.start();
    }

    public Object currentKey() {
        return currentKey;
    }

    /** The table of a state, created on first use; a second registration must match the first. */
    public StateTable table(StateDescriptor<?> descriptor) {
        StateTable table = tables.computeIfAbsent(descriptor.name(), n -> new StateTable(descriptor, range.size()));
        if (!table.descriptor().equals(descriptor)) {
            throw new EngineException("operator '" + operator + "': state '" + descriptor.name()
                    + "' is registered twice with different types (" + table.descriptor() + " vs " + descriptor
                    + "); use one descriptor per name");
        }
        return table;
    }

    public Map<String, StateTable> tables() {
        return tables;
    }

    Object get(StateTable table) {
        return table.group(currentGroup).get(currentKey);
    }

    void put(StateTable table, Object value) {
        table.group(currentGroup).put(currentKey, value);
    }

    void remove(StateTable table) {
        table.group(currentGroup).remove(currentKey);
    }

    /** All entries of one state, per key group; for snapshots and tests. */
    public static final class StateTable {
        private final StateDescriptor<?> descriptor;
        private final HashMap<Object, Object>[] groups;

        @SuppressWarnings("unchecked")
        StateTable(StateDescriptor<?> descriptor, int groupCount) {
            this.descriptor = descriptor;
            this.groups = new HashMap[groupCount];
            for (int i = 0; i < groupCount; i++) {
                groups[i] = new HashMap<>();
            }
        }

        public StateDescriptor<?> descriptor() {
            return descriptor;
        }

        /** The entries of the range's {@code index}-th key group (not the key group number). */
        public HashMap<Object, Object> group(int index) {
            return groups[index];
        }

        public int groupCount() {
            return groups.length;
        }
    }
}
