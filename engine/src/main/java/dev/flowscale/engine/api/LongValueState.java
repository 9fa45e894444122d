package dev.flowscale.engine.api;

/**
 * A {@code long} scoped to the current key, held unboxed: a count or a sum updated per record
 * allocates nothing. It is the same state as a {@link ValueState ValueState&lt;Long&gt;} of the
 * same descriptor ({@code StateDescriptor.value(name, Long.class)}): snapshots hold it the same
 * way, so a job may switch between the two across a restore.
 */
public interface LongValueState {
    /** Whether the current key has a value. */
    boolean exists();

    /** The current key's value, or {@code absent} if it has none. */
    long valueOr(long absent);

    void update(long value);

    /** Adds {@code delta} to the current key's value (0 if it has none); returns the new value. */
    long add(long delta);

    void clear();
}
