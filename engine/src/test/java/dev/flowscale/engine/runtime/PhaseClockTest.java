package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import org.junit.jupiter.api.Test;

/** Booking useful time after the fact never counts a nanosecond twice. */
class PhaseClockTest {
    private static final long MILLI = 1_000_000L;

    private final InstanceCounterRecorder recorder = new InstanceCounterRecorder("src", 0, true);
    private final PhaseClock clock = new PhaseClock(recorder, true);

    @Test
    void whenABackpressureWaitEndedAfterTheStartGiven_thenUsefulTimeStartsAtItsEnd() {
        clock.start();
        clock.enter(Phase.WAIT_INPUT);
        long pollStart = System.nanoTime();
        clock.enter(Phase.BACKPRESSURE); // the poll's emit blocked on a full channel
        spin(5 * MILLI);
        clock.enter(Phase.WAIT_INPUT);

        clock.usefulSince(pollStart);
        spin(MILLI);
        InstanceCounts counts = recorder.snapshot(System.nanoTime());

        assertThat(counts.backpressureNanos()).isGreaterThanOrEqualTo(5 * MILLI);
        assertThat(counts.waitInputNanos()).isNotNegative();
        assertThat(counts.usefulNanos() + counts.waitInputNanos() + counts.backpressureNanos())
                .as("every nanosecond counted once")
                .isLessThanOrEqualTo(counts.observedNanos());
    }

    private static void spin(long nanos) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) {
            Thread.onSpinWait();
        }
    }
}
