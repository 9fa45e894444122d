package dev.flowscale.engine.api;

/** Reads a record's event time, in milliseconds since the epoch. */
@FunctionalInterface
public interface TimestampAssigner<T> {
    long extractTimestamp(T record);
}
