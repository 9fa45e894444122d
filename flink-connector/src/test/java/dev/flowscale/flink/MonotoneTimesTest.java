package dev.flowscale.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.InstanceCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

class MonotoneTimesTest {
    private final MonotoneTimes times = new MonotoneTimes();

    @Test
    void aBusyTimeThatFallsWithinARunIsHeldAtTheLastOneAndObservedTimeFollows() {
        times.apply("run", List.of(source(100, 5.0, 1.0, 4.0)));

        InstanceCounters held = times.apply("run", List.of(source(120, 4.6, 1.2, 6.0))).get(0);

        assertThat(held.usefulSeconds()).isEqualTo(5.0);
        assertThat(held.waitInputSeconds()).isEqualTo(1.2);
        assertThat(held.backpressureSeconds()).isEqualTo(6.0);
        assertThat(held.observedSeconds()).isEqualTo(12.2);
        assertThat(held.recordsIn()).isEqualTo(120);
    }

    @Test
    void recordsGoingBackwardsOrANewRunAreARestartAndTheTimesAreTakenAsRead() {
        times.apply("run", List.of(source(100, 5.0, 1.0, 4.0)));

        assertThat(times.apply("run", List.of(source(3, 0.1, 0.2, 0.0))).get(0).usefulSeconds())
                .isEqualTo(0.1);
        times.apply("run", List.of(source(100, 5.0, 1.0, 4.0)));
        assertThat(times.apply("other", List.of(source(200, 1.0, 1.0, 1.0))).get(0).usefulSeconds())
                .isEqualTo(1.0);
    }

    private static InstanceCounters source(
            double records, double busy, double idle, double backpressure) {
        return new InstanceCounters(
                "Source",
                0,
                records,
                records,
                busy,
                idle,
                backpressure,
                busy + idle + backpressure,
                0,
                false);
    }
}
