package dev.flowscale.engine.state;

import dev.flowscale.engine.api.StateDescriptor;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * The entries of one heap state in one key group: an open-addressing table (linear probing) that
 * keeps beside each key its {@link KeyGroups#murmurHash murmur hash}, the hash the key group is
 * computed from. The record path hands that hash in ({@link #get(Object, int)}), so a key is hashed
 * once per record for its key group and its entry, a probe compares cached hashes before it calls
 * {@code equals}, and a growing table never calls {@code hashCode} again.
 *
 * <p>The table remembers the slot of its last lookup, by the key's reference: reading a key's value
 * again and then writing it (a counter's {@code value()} then {@code update()}, a map state's
 * {@code get} then {@code put}) probes once, and writing a key the lookup missed inserts it where
 * the probe stopped. An insertion remembers its own slot; a removal or a resize forgets it. Keys
 * must not be null; values are never null (state removes the key instead). Not thread-safe: the
 * owning task's thread changes it, and snapshots read it only while that thread waits.
 *
 * <p>A value state of {@code Long} ({@link #forState}) keeps its values unboxed in a {@code
 * long[]}: {@link dev.flowscale.engine.api.LongValueState} reads and writes them with no allocation
 * and no reference store per record, while the {@link Map} view (snapshots, copies, restores, a
 * {@code ValueState<Long>} of the same state) sees them as {@code Long}s.
 */
public final class KeyGroupMap extends AbstractMap<Object, Object> {
    private static final int[] NO_HASHES = new int[0];
    private static final Object[] NO_SLOTS = new Object[0];
    private static final long[] NO_LONGS = new long[0];
    private static final int FIRST_CAPACITY = 8;

    /** Fibonacci hashing: spreads the murmur hash, whose low bits the key group fixes. */
    private static final int SPREAD = 0x9E3779B9;

    private int[] hashes = NO_HASHES;
    private Object[] keys = NO_SLOTS;
    private Object[] values = NO_SLOTS;
    private int size;
    private int shift = 32;

    /** The values of a table of unboxed longs ({@link #values} then unused); null otherwise. */
    private long[] longs;

    /** The key of the last lookup (by reference) and its slot, or minus one minus the free slot. */
    private Object lastKey;

    private int lastSlot;

    public KeyGroupMap() {}

    /** A table holding {@code entries}' entries (keys and values not null). */
    public KeyGroupMap(Map<?, ?> entries) {
        entries.forEach(this::put);
    }

    /**
     * An empty table for {@code descriptor}'s entries: a value state of longs holds them unboxed.
     */
    static KeyGroupMap forState(StateDescriptor<?> descriptor) {
        KeyGroupMap table = new KeyGroupMap();
        if (descriptor.kind() == StateDescriptor.Kind.VALUE
                && descriptor.valueType() == Long.class) {
            table.longs = NO_LONGS;
        }
        return table;
    }

    /**
     * A copy of {@code original} with the same layout and values held the same way (boxed or not):
     * its arrays are cloned, so nothing is hashed or probed again.
     */
    static KeyGroupMap copyOf(KeyGroupMap original) {
        KeyGroupMap copy = new KeyGroupMap();
        copy.hashes = original.hashes.clone();
        copy.keys = original.keys.clone();
        copy.values = original.values.clone();
        copy.longs = original.longs == null ? null : original.longs.clone();
        copy.size = original.size;
        copy.shift = original.shift;
        return copy;
    }

    /** Whether this table keeps its values as unboxed longs. */
    boolean holdsLongs() {
        return longs != null;
    }

    /** The hash this table keeps for {@code key}: the one its key group is computed from. */
    static int hashOf(Object key) {
        return KeyGroups.murmurHash(key.hashCode());
    }

    /** The value of {@code key}, whose {@link #hashOf hash} is {@code hash}; null if absent. */
    Object get(Object key, int hash) {
        int slot = lookUp(key, hash);
        return slot >= 0 ? valueAt(slot) : null;
    }

    /** Sets the value of {@code key} (hash {@code hash}). */
    void set(Object key, int hash, Object value) {
        setValue(slotFor(key, hash), value);
    }

    /** Whether {@code key} (hash {@code hash}) has a value. */
    boolean contains(Object key, int hash) {
        return lookUp(key, hash) >= 0;
    }

    /** The long value of {@code key} (hash {@code hash}), or {@code absent}; a table of longs. */
    long getLong(Object key, int hash, long absent) {
        int slot = lookUp(key, hash);
        return slot >= 0 ? longs[slot] : absent;
    }

    /** Sets the long value of {@code key} (hash {@code hash}); a table of longs. */
    void setLong(Object key, int hash, long value) {
        // The slot first: inserting may grow the table, which replaces the array.
        int slot = slotFor(key, hash);
        longs[slot] = value;
    }

    /** Adds {@code delta} to the value of {@code key} (0 if absent); returns the new value. */
    long addLong(Object key, int hash, long delta) {
        int slot = key == lastKey ? lastSlot : find(key, hash);
        if (slot < 0) {
            slot = insert(key, hash, slot);
            longs[slot] = delta;
            return delta;
        }
        return longs[slot] += delta;
    }

    /** The slot of {@code key} (or minus one minus its free slot), remembered for a write next. */
    private int lookUp(Object key, int hash) {
        int slot = key == lastKey ? lastSlot : find(key, hash);
        lastKey = key;
        lastSlot = slot;
        return slot;
    }

    /** The slot holding {@code key}, inserted (its value not yet set) if it was absent. */
    private int slotFor(Object key, int hash) {
        int slot = key == lastKey ? lastSlot : find(key, hash);
        return slot >= 0 ? slot : insert(key, hash, slot);
    }

    /** Inserts {@code key}, whose probe stopped at {@code missed}; returns its slot. */
    private int insert(Object key, int hash, int missed) {
        int slot = missed;
        if ((size + 1) << 1 > keys.length) {
            grow();
            slot = find(key, hash);
        }
        slot = -slot - 1;
        hashes[slot] = hash;
        keys[slot] = key;
        size++;
        lastKey = key;
        lastSlot = slot;
        return slot;
    }

    private Object valueAt(int slot) {
        return longs == null ? values[slot] : Long.valueOf(longs[slot]);
    }

    private void setValue(int slot, Object value) {
        if (longs == null) {
            values[slot] = value;
        } else if (value instanceof Long l) {
            longs[slot] = l;
        } else {
            throw new IllegalArgumentException(
                    "a value state of Long holds Long values, not "
                            + value.getClass().getName()
                            + "; update it with a Long");
        }
    }

    /** Removes {@code key} (hash {@code hash}); returns its value or null if absent. */
    Object remove(Object key, int hash) {
        int slot = key == lastKey ? lastSlot : find(key, hash);
        if (slot < 0) {
            return null;
        }
        Object previous = valueAt(slot);
        closeGap(slot);
        size--;
        lastKey = null;
        return previous;
    }

    @Override
    public Object get(Object key) {
        return key == null ? null : get(key, hashOf(key));
    }

    @Override
    public boolean containsKey(Object key) {
        return key != null && find(key, hashOf(key)) >= 0;
    }

    @Override
    public Object put(Object key, Object value) {
        if (key == null || value == null) {
            throw new NullPointerException("keyed state holds no null keys or values");
        }
        int hash = hashOf(key);
        Object previous = get(key, hash);
        set(key, hash, value);
        return previous;
    }

    @Override
    public Object remove(Object key) {
        return key == null ? null : remove(key, hashOf(key));
    }

    @Override
    public int size() {
        return size;
    }

    /** Slots allocated: at least twice the size, and at most four times the largest size held. */
    int capacity() {
        return keys.length;
    }

    @Override
    public void clear() {
        hashes = NO_HASHES;
        keys = NO_SLOTS;
        values = NO_SLOTS;
        longs = longs == null ? null : NO_LONGS;
        size = 0;
        shift = 32;
        lastKey = null;
    }

    @Override
    public void forEach(BiConsumer<? super Object, ? super Object> action) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                action.accept(keys[i], valueAt(i));
            }
        }
    }

    @Override
    public void replaceAll(BiFunction<? super Object, ? super Object, ?> function) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                setValue(i, function.apply(keys[i], valueAt(i)));
            }
        }
    }

    @Override
    public Set<Entry<Object, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<Object, Object>> iterator() {
                return new Entries();
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** The slot holding {@code key}, or minus one minus the free slot where it would go. */
    private int find(Object key, int hash) {
        if (keys.length == 0) {
            return -1;
        }
        int mask = keys.length - 1;
        for (int i = (hash * SPREAD) >>> shift; ; i = (i + 1) & mask) {
            Object k = keys[i];
            if (k == null) {
                return -i - 1;
            }
            if (hashes[i] == hash && (k == key || k.equals(key))) {
                return i;
            }
        }
    }

    /**
     * Empties {@code slot} and moves back the entries after it that probed past it, so that every
     * key stays reachable from its home slot without tombstones.
     */
    private void closeGap(int slot) {
        int mask = keys.length - 1;
        int gap = slot;
        for (int i = (gap + 1) & mask; keys[i] != null; i = (i + 1) & mask) {
            int home = (hashes[i] * SPREAD) >>> shift;
            if (((i - home) & mask) >= ((i - gap) & mask)) {
                hashes[gap] = hashes[i];
                keys[gap] = keys[i];
                moveValue(i, gap);
                gap = i;
            }
        }
        keys[gap] = null;
        if (longs == null) {
            values[gap] = null;
        }
    }

    private void moveValue(int from, int to) {
        if (longs == null) {
            values[to] = values[from];
        } else {
            longs[to] = longs[from];
        }
    }

    private void grow() {
        int[] oldHashes = hashes;
        Object[] oldKeys = keys;
        Object[] oldValues = values;
        long[] oldLongs = longs;
        int capacity = Math.max(FIRST_CAPACITY, oldKeys.length << 1);
        hashes = new int[capacity];
        keys = new Object[capacity];
        if (oldLongs == null) {
            values = new Object[capacity];
        } else {
            longs = new long[capacity];
        }
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = (oldHashes[j] * SPREAD) >>> shift;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                hashes[i] = oldHashes[j];
                keys[i] = oldKeys[j];
                if (oldLongs == null) {
                    values[i] = oldValues[j];
                } else {
                    longs[i] = oldLongs[j];
                }
            }
        }
        lastKey = null;
    }

    /** Visits the occupied slots in order; an entry's value writes through to its slot. */
    private final class Entries implements Iterator<Entry<Object, Object>> {
        private int next = advance(0);

        private int advance(int from) {
            int i = from;
            while (i < keys.length && keys[i] == null) {
                i++;
            }
            return i;
        }

        @Override
        public boolean hasNext() {
            return next < keys.length;
        }

        @Override
        public Entry<Object, Object> next() {
            if (next >= keys.length) {
                throw new NoSuchElementException();
            }
            int slot = next;
            next = advance(slot + 1);
            return new SimpleEntry<>(keys[slot], valueAt(slot)) {
                @Override
                public Object setValue(Object value) {
                    KeyGroupMap.this.setValue(slot, value);
                    return super.setValue(value);
                }
            };
        }
    }
}
