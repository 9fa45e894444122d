package dev.flowscale.engine.window;

/** The event-time interval {@code [start, end)} of a window, in milliseconds. */
public record TimeWindow(long start, long end) {

    /** The largest timestamp in the window: it fires when the watermark reaches this. */
    public long maxTimestamp() {
        return end - 1;
    }

    /** Whether the two windows overlap or touch (session windows that do are merged). */
    public boolean intersects(TimeWindow other) {
        return start <= other.end && end >= other.start;
    }

    /** The smallest window that covers both. */
    public TimeWindow cover(TimeWindow other) {
        return new TimeWindow(Math.min(start, other.start), Math.max(end, other.end));
    }
}
