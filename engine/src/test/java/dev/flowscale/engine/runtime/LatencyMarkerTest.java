package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A source's marker schedule and an instance's latency histograms, on a clock stepped by hand. */
class LatencyMarkerTest {
    private final ManualClock clock = new ManualClock(Instant.ofEpochMilli(10_000));

    @Test
    void aSourceEmitsAMarkerAtOnceThenOncePerIntervalStampedWithItsClock() {
        MarkerSchedule schedule = new MarkerSchedule("src", 3, Duration.ofMillis(200), clock);

        assertThat(schedule.due()).isEqualTo(new LatencyMarker("src", 3, 10_000));
        clock.advance(Duration.ofMillis(199));
        assertThat(schedule.due()).as("before the interval").isNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(schedule.due()).isEqualTo(new LatencyMarker("src", 3, 10_200));
        assertThat(schedule.due()).as("once per interval").isNull();
    }

    @Test
    void anInstanceRecordsEachMarkersAgeInTheHistogramOfItsSource() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Timer left = registry.timer("left");
        Timer right = registry.timer("right");
        LatencyStats stats = new LatencyStats(Map.of("left", left, "right", right), clock);

        stats.record(new LatencyMarker("left", 0, 9_750));
        stats.record(new LatencyMarker("left", 1, 9_990));
        stats.record(new LatencyMarker("right", 0, 10_000));
        stats.record(new LatencyMarker("elsewhere", 0, 9_000));

        assertThat(left.count()).isEqualTo(2);
        assertThat(left.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(260.0);
        assertThat(left.max(TimeUnit.MILLISECONDS)).isEqualTo(250.0);
        assertThat(right.count()).isEqualTo(1);
        assertThat(right.totalTime(TimeUnit.MILLISECONDS)).isZero();
    }

    @Test
    void aMarkerStampedAheadOfTheInstancesClockCountsAsNoLatencyRatherThanNegative() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Timer timer = registry.timer("src");
        LatencyStats stats = new LatencyStats(Map.of("src", timer), clock);

        stats.record(new LatencyMarker("src", 0, 10_050));

        assertThat(timer.count()).isEqualTo(1);
        assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isZero();
    }
}
