package dev.flowscale.engine.state;

import java.util.PrimitiveIterator;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * An inclusive, contiguous range of key groups owned by one operator instance. Immutable. A range
 * whose end lies before its start is empty; {@link #EMPTY} is the canonical one.
 *
 * @param start first key group in the range
 * @param endInclusive last key group in the range
 */
public record KeyGroupRange(int start, int endInclusive) implements Iterable<Integer> {

    /** The range that holds no key group. */
    public static final KeyGroupRange EMPTY = new KeyGroupRange(0, -1);

    /**
     * Checks the bounds; every empty range is normalised to {@link #EMPTY}'s bounds so that
     * equality means "same key groups".
     */
    public KeyGroupRange {
        if (start < 0) {
            throw new IllegalArgumentException(
                    "start must be >= 0 but was " + start + "; key groups are numbered from 0");
        }
        if (endInclusive < start) {
            start = 0;
            endInclusive = -1;
        }
    }

    /** Range of exactly one key group. */
    public static KeyGroupRange of(int keyGroup) {
        return new KeyGroupRange(keyGroup, keyGroup);
    }

    /** Number of key groups in the range; 0 when empty. */
    public int size() {
        return endInclusive - start + 1;
    }

    /** Whether the range holds no key group. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** Whether {@code keyGroup} lies in the range. */
    public boolean contains(int keyGroup) {
        return keyGroup >= start && keyGroup <= endInclusive;
    }

    /** Key groups that lie in both ranges; {@link #EMPTY} if they do not overlap. */
    public KeyGroupRange intersection(KeyGroupRange other) {
        int lo = Math.max(start, other.start);
        int hi = Math.min(endInclusive, other.endInclusive);
        return lo <= hi ? new KeyGroupRange(lo, hi) : EMPTY;
    }

    /** The key groups in ascending order, without boxing. */
    public IntStream stream() {
        return IntStream.rangeClosed(start, endInclusive);
    }

    /** Calls {@code action} with each key group in ascending order, without boxing. */
    public void forEachKeyGroup(IntConsumer action) {
        for (int kg = start; kg <= endInclusive; kg++) {
            action.accept(kg);
        }
    }

    /** Iterates the key groups in ascending order. */
    @Override
    public PrimitiveIterator.OfInt iterator() {
        return stream().iterator();
    }

    /** Like {@code [0..63]}, or {@code []} when empty. */
    @Override
    public String toString() {
        return isEmpty() ? "[]" : "[" + start + ".." + endInclusive + "]";
    }
}
