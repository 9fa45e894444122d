package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import org.junit.jupiter.api.Test;

/**
 * A chain of a head and one member on a manual clock (the recorders take every instant as an
 * argument): the thread's CPU time is split by the useful time each gained since the previous
 * reading, its wait for a core goes to each whole.
 */
class ChainThreadTimesTest {
    private final InstanceCounterRecorder head = new InstanceCounterRecorder("head", 0, false);
    private final InstanceCounterRecorder member = new InstanceCounterRecorder("member", 0, false);
    private final ChainThreadTimes times =
            new ChainThreadTimes(new InstanceCounterRecorder[] {head, member});

    ChainThreadTimesTest() {
        head.start(0);
        member.start(0);
        head.usefulShare(0.25, 0);
        member.usefulShare(0.75, 0);
    }

    @Test
    void cpuTimeGoesToEachOperatorByTheUsefulTimeItGained() {
        InstanceCounts[] first = times.snapshot(1_000, 800L, 100L);
        assertThat(first[0].cpuNanos()).isEqualTo(200);
        assertThat(first[1].cpuNanos()).isEqualTo(600);

        head.usefulShare(0.5, 1_000);
        member.usefulShare(0.5, 1_000);
        InstanceCounts[] second = times.snapshot(2_000, 1_800L, 150L);

        assertThat(second[0].cpuNanos()).isEqualTo(200 + 500);
        assertThat(second[1].cpuNanos()).isEqualTo(600 + 500);
    }

    @Test
    void everyOperatorReportsTheThreadsWholeWaitForACore() {
        InstanceCounts[] counts = times.snapshot(1_000, 800L, 100L);

        assertThat(counts[0].coreWaitNanos()).isEqualTo(100);
        assertThat(counts[1].coreWaitNanos()).isEqualTo(100);
    }

    @Test
    void cpuTimeWithoutUsefulTimeGoesToTheHeadThatWaits() {
        times.snapshot(1_000, 800L, 100L);
        head.enter(Phase.WAIT_INPUT, 1_000);
        member.enter(Phase.WAIT_INPUT, 1_000);

        InstanceCounts[] idle = times.snapshot(2_000, 900L, 100L);

        assertThat(idle[0].cpuNanos()).isEqualTo(200 + 100);
        assertThat(idle[1].cpuNanos()).isEqualTo(600);
    }

    @Test
    void timesNotKnownStayNotKnown() {
        InstanceCounts[] counts = times.snapshot(1_000, null, null);

        assertThat(counts[0].cpuNanos()).isNull();
        assertThat(counts[1].coreWaitNanos()).isNull();
        assertThat(counts[1].usefulNanos()).isEqualTo(750);
    }

    @Test
    void anOperatorAloneOnItsThreadReportsTheThreadsTimes() {
        InstanceCounterRecorder alone = new InstanceCounterRecorder("alone", 0, false);
        alone.start(0);

        InstanceCounts[] counts =
                new ChainThreadTimes(new InstanceCounterRecorder[] {alone})
                        .snapshot(1_000, 900L, 40L);

        assertThat(counts[0].cpuNanos()).isEqualTo(900);
        assertThat(counts[0].coreWaitNanos()).isEqualTo(40);
    }
}
