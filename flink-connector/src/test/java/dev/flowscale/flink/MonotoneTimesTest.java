package dev.flowscale.flink;

import static dev.flowscale.autoscaler.metrics.Counters.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.List;
import org.junit.jupiter.api.Test;

class MonotoneTimesTest {
    private final MonotoneTimes times = new MonotoneTimes();

    @Test
    void aBusyTimeThatFallsWithinARunIsHeldAtTheLastOneAndObservedTimeFollows() {
        times.apply("run", List.of(source(100, 5.0, 1.0, 4.0)));

        InstanceCounts held = times.apply("run", List.of(source(120, 4.6, 1.2, 6.0))).get(0);

        assertThat(seconds(held.usefulNanos())).isEqualTo(5.0);
        assertThat(seconds(held.waitInputNanos())).isEqualTo(1.2);
        assertThat(seconds(held.backpressureNanos())).isEqualTo(6.0);
        assertThat(seconds(held.observedNanos())).isEqualTo(12.2);
        assertThat(held.recordsIn()).isEqualTo(120);
    }

    @Test
    void recordsGoingBackwardsOrANewRunAreARestartAndTheTimesAreTakenAsRead() {
        times.apply("run", List.of(source(100, 5.0, 1.0, 4.0)));

        assertThat(
                        seconds(
                                times.apply("run", List.of(source(3, 0.1, 0.2, 0.0)))
                                        .get(0)
                                        .usefulNanos()))
                .isEqualTo(0.1);
        times.apply("run", List.of(source(100, 5.0, 1.0, 4.0)));
        assertThat(
                        seconds(
                                times.apply("other", List.of(source(200, 1.0, 1.0, 1.0)))
                                        .get(0)
                                        .usefulNanos()))
                .isEqualTo(1.0);
    }

    private static InstanceCounts source(
            double records, double busy, double idle, double backpressure) {
        return Counters.ofSeconds(
                "Source", 0, records, records, busy, idle, backpressure, 0, false);
    }
}
