package dev.flowscale.engine.api;

/** Which clock a timer follows. */
public enum TimeDomain {
    /** The watermark: fires when the watermark passes the timer's time. */
    EVENT_TIME,
    /** The wall clock of the instance: fires when the clock passes the timer's time. */
    PROCESSING_TIME
}
