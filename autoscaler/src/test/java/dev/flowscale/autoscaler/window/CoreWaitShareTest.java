package dev.flowscale.autoscaler.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoreWaitShareTest {

    private static final long S = 1_000_000_000L;

    @Test
    void theWaitFallingInUsefulTimeIsTakenInProportionToUsefulOverObservedTime() {
        // instance 0: busy all 10 s, waited 4 s; instance 1: useful 2 of 10 s, waited 5 s
        List<InstanceCounts> starts = List.of(counts(0, 0, 0, 0L), counts(1, 0, 0, 0L));
        List<InstanceCounts> ends = List.of(counts(0, 10, 10, 4 * S), counts(1, 2, 10, 5 * S));
        assertThat(WindowRates.coreWaitShare(starts, ends))
                .isCloseTo(
                        (4 * 1.0 + 5 * 0.2) / (10 + 2), org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void anInstanceWhoseWaitIsNotKnownLeavesTheShareUnknown() {
        List<InstanceCounts> starts = List.of(counts(0, 0, 0, 0L), counts(1, 0, 0, null));
        List<InstanceCounts> ends = List.of(counts(0, 10, 10, 4 * S), counts(1, 2, 10, null));
        assertThat(WindowRates.coreWaitShare(starts, ends)).isNull();
    }

    private static InstanceCounts counts(int i, long useful, long observed, Long wait) {
        return new InstanceCounts(
                "op",
                i,
                observed * S,
                observed * S,
                100,
                100,
                useful * S,
                (observed - useful) * S,
                0,
                0L,
                false,
                0,
                new long[0],
                null,
                wait);
    }
}
