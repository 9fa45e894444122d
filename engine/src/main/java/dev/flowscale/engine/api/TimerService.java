package dev.flowscale.engine.api;

/**
 * Timers of the current key, in milliseconds. A key has at most one timer per time and domain;
 * timers are part of the keyed state, so they are checkpointed and move with their key group when
 * the operator is rescaled.
 */
public interface TimerService {
    /** The instance's current watermark; {@link Long#MIN_VALUE} before the first one. */
    long currentWatermark();

    /** The instance's wall clock, in milliseconds since the epoch. */
    long currentProcessingTime();

    /** Fires {@code onTimer} for the current key once the watermark reaches {@code time}. */
    void registerEventTimeTimer(long time);

    /** Fires {@code onTimer} for the current key once the wall clock reaches {@code time}. */
    void registerProcessingTimeTimer(long time);

    void deleteEventTimeTimer(long time);

    void deleteProcessingTimeTimer(long time);
}
