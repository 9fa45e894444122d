package dev.flowscale.collector.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.collector.api.InstanceCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuShareTest {

    @Test
    void theShareIsTheOperatorsCpuTimeOverItsUsefulTimeInTheWindow() {
        List<InstanceCounters> starts = List.of(counters(0, 10, 4), counters(1, 20, 10));
        List<InstanceCounters> ends = List.of(counters(0, 18, 6), counters(1, 28, 15));
        assertThat(WindowRates.cpuShare(starts, ends)).isEqualTo((2.0 + 5) / (8 + 8));
    }

    @Test
    void anInstanceWhoseCpuTimeIsNotKnownLeavesTheShareUnknown() {
        List<InstanceCounters> starts = List.of(counters(0, 10, 4), counters(1, 20, Double.NaN));
        List<InstanceCounters> ends = List.of(counters(0, 18, 6), counters(1, 28, Double.NaN));
        assertThat(WindowRates.cpuShare(starts, ends)).isNaN();
    }

    private static InstanceCounters counters(int i, double useful, double cpu) {
        return new InstanceCounters(
                "op", i, 100, 100, useful, 1, 0, useful + 1, 0, false, 0, new long[0], cpu);
    }
}
