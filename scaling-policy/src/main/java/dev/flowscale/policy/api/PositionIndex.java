package dev.flowscale.policy.api;

import java.util.List;

/**
 * Positions of distinct ids in a list, by id: an open-addressing table of the ids and their
 * positions. A decision reads positions by id thousands of times; through an unmodifiable map the
 * read went through a call site that every wrapped map in the JVM shares, which the JIT cannot
 * inline once it has seen several map types. This class has one implementation, holds ints (no
 * boxing) and uses the hash code a {@code String} caches.
 */
final class PositionIndex {

    private final String[] ids;
    private final int[] positions;
    private final int mask;
    private final int shift;

    /** {@code ids} must be distinct. */
    PositionIndex(List<String> ids) {
        int capacity = Integer.highestOneBit(Math.max(2, ids.size()) * 2 - 1) << 1;
        this.ids = new String[capacity];
        this.positions = new int[capacity];
        this.mask = capacity - 1;
        this.shift = Integer.numberOfLeadingZeros(mask);
        for (int i = 0; i < ids.size(); i++) {
            int slot = slot(ids.get(i));
            this.ids[slot] = ids.get(i);
            this.positions[slot] = i;
        }
    }

    /** The slot holding {@code id}, or the empty slot where it would go. */
    private int slot(String id) {
        // Fibonacci hashing: the top bits of the hash times 2^32 / golden ratio. Ids that differ
        // in their last characters ("op1234", "op1235", ...) have hash codes close together;
        // masked low bits left them in long runs of neighbouring slots that every lookup probed
        int slot = (id.hashCode() * 0x9E3779B9) >>> shift;
        while (ids[slot] != null && !ids[slot].equals(id)) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /** The position of {@code id}, or -1 when the list has no such id. */
    int of(String id) {
        int slot = slot(id);
        return ids[slot] == null ? -1 : positions[slot];
    }
}
