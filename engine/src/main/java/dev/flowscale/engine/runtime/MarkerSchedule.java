package dev.flowscale.engine.runtime;

import java.time.Clock;
import java.time.Duration;

/**
 * When a source instance emits its latency markers: at most one per interval of the job's clock,
 * read once per poll of the reader (a marker is late by at most one poll). Nothing of it is in
 * snapshots: after a restore or rescale the next marker is simply due at once.
 */
final class MarkerSchedule {
    private final String source;
    private final int instance;
    private final long intervalMillis;
    private final Clock clock;
    private long nextAt = Long.MIN_VALUE;

    MarkerSchedule(String source, int instance, Duration interval, Clock clock) {
        this.source = source;
        this.instance = instance;
        this.intervalMillis = interval.toMillis() > 0 ? interval.toMillis() : 1;
        this.clock = clock;
    }

    /** A marker stamped with the clock's time if one is due, else null. */
    LatencyMarker due() {
        long now = clock.millis();
        if (now < nextAt) {
            return null;
        }
        nextAt = now + intervalMillis;
        return new LatencyMarker(source, instance, now);
    }
}
