package dev.flowscale.collector.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.collector.api.InstanceCounters;
import dev.flowscale.runner.api.MetricsView;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunnerCpuTimeTest {

    @Test
    void theRunnersThreadTimesReachTheCountersAsSecondsAndTheirAbsenceAsUnknown() {
        List<InstanceCounters> read =
                RunnerModel.counters(
                        List.of(counts(2_500_000_000L, 500_000_000L), counts(null, null)));
        assertThat(read.get(0).cpuSeconds()).isEqualTo(2.5);
        assertThat(read.get(0).coreWaitSeconds()).isEqualTo(0.5);
        assertThat(read.get(1).cpuSeconds()).isNaN();
        assertThat(read.get(1).coreWaitSeconds()).isNaN();
    }

    private static MetricsView.InstanceCounts counts(Long cpuNanos, Long waitNanos) {
        return new MetricsView.InstanceCounts(
                "op", 0, 1, 5, 1, 1, 4, 1, 0, 0, false, false, 0, new long[0], cpuNanos, waitNanos);
    }
}
