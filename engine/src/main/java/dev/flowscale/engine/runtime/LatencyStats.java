package dev.flowscale.engine.runtime;

import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An operator instance's latency histograms, one per source operator that reaches it (Flink's
 * "operator" granularity: source instances share a histogram). A marker's latency is the job
 * clock's time now minus the time its source stamped on it, never below 0.
 */
final class LatencyStats {
    private final Map<String, Timer> bySource;
    private final Clock clock;

    LatencyStats(Map<String, Timer> bySource, Clock clock) {
        this.bySource = Map.copyOf(bySource);
        this.clock = clock;
    }

    void record(LatencyMarker marker) {
        Timer timer = bySource.get(marker.source());
        if (timer != null) {
            long latency = Math.max(0, clock.millis() - marker.emittedAtMillis());
            timer.record(latency, TimeUnit.MILLISECONDS);
        }
    }
}
