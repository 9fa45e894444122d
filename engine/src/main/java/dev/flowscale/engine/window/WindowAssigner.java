package dev.flowscale.engine.window;

import dev.flowscale.engine.api.InvalidJobException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts a record into the event-time windows it belongs to: tumbling (fixed, adjacent), sliding
 * (fixed, overlapping) or session windows (a gap of inactivity ends a session; windows that touch
 * are merged).
 */
public final class WindowAssigner {
    private final long size;
    private final long slide;
    private final long gap;

    private WindowAssigner(long size, long slide, long gap) {
        this.size = size;
        this.slide = slide;
        this.gap = gap;
    }

    /** Windows of {@code size} one after another, aligned to the epoch. */
    public static WindowAssigner tumbling(Duration size) {
        long millis = positive(size, "size");
        return new WindowAssigner(millis, millis, 0);
    }

    /** Windows of {@code size} starting every {@code slide}; a record is in size/slide of them. */
    public static WindowAssigner sliding(Duration size, Duration slide) {
        long s = positive(size, "size");
        long every = positive(slide, "slide");
        if (every > s) {
            throw new InvalidJobException(
                    "sliding windows: slide "
                            + slide
                            + " is larger than size "
                            + size
                            + "; records between windows would be lost; use slide <= size");
        }
        return new WindowAssigner(s, every, 0);
    }

    /** A key's session: records less than {@code gap} apart; merged as records arrive. */
    public static WindowAssigner session(Duration gap) {
        return new WindowAssigner(0, 0, positive(gap, "gap"));
    }

    private static long positive(Duration d, String field) {
        if (d == null || d.toMillis() <= 0) {
            throw new InvalidJobException(
                    "window assigner: "
                            + field
                            + " is "
                            + d
                            + "; use at least one millisecond, e.g. Duration.ofSeconds(10)");
        }
        return d.toMillis();
    }

    /** The length of each window; 0 for session windows, whose length varies. */
    public long sizeMillis() {
        return size;
    }

    /** Whether windows merge (session windows). */
    public boolean merging() {
        return gap > 0;
    }

    /**
     * The start of the latest fixed-size window that holds {@code timestamp}; the others that hold
     * it start {@link #slideMillis()} apart before it, while {@link #holds} is true. The window
     * operator and the window join walk them so, allocating nothing per record (no list, no window
     * a join does not need).
     */
    public long lastStart(long timestamp) {
        return timestamp - Math.floorMod(timestamp, slide);
    }

    /** Whether the fixed-size window starting at {@code start} holds {@code timestamp}. */
    public boolean holds(long start, long timestamp) {
        return start > timestamp - size;
    }

    /** How far apart fixed-size windows start; 0 for session windows. */
    public long slideMillis() {
        return slide;
    }

    /** The windows a record with event time {@code timestamp} belongs to. */
    public List<TimeWindow> assign(long timestamp) {
        if (merging()) {
            return List.of(new TimeWindow(timestamp, timestamp + gap));
        }
        List<TimeWindow> windows = new ArrayList<>((int) (size / slide));
        for (long start = lastStart(timestamp); holds(start, timestamp); start -= slide) {
            windows.add(new TimeWindow(start, start + size));
        }
        return windows;
    }
}
