package dev.flowscale.collector.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.collector.api.InstanceCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoreWaitShareTest {

    @Test
    void theWaitFallingInUsefulTimeIsTakenInProportionToUsefulOverObservedTime() {
        // instance 0: busy all 10 s, waited 4 s; instance 1: useful 2 of 10 s, waited 5 s
        List<InstanceCounters> starts = List.of(counters(0, 0, 0, 0), counters(1, 0, 0, 0));
        List<InstanceCounters> ends = List.of(counters(0, 10, 10, 4), counters(1, 2, 10, 5));
        assertThat(WindowRates.coreWaitShare(starts, ends))
                .isEqualTo((4 * 1.0 + 5 * 0.2) / (10 + 2));
    }

    @Test
    void anInstanceWhoseWaitIsNotKnownLeavesTheShareUnknown() {
        List<InstanceCounters> starts =
                List.of(counters(0, 0, 0, 0), counters(1, 0, 0, InstanceCounters.UNKNOWN_CPU));
        List<InstanceCounters> ends =
                List.of(counters(0, 10, 10, 4), counters(1, 2, 10, InstanceCounters.UNKNOWN_CPU));
        assertThat(WindowRates.coreWaitShare(starts, ends)).isNaN();
    }

    private static InstanceCounters counters(int i, double useful, double observed, double wait) {
        return new InstanceCounters(
                "op",
                i,
                100,
                100,
                useful,
                observed - useful,
                0,
                observed,
                0,
                false,
                0,
                new long[0],
                InstanceCounters.UNKNOWN_CPU,
                wait);
    }
}
