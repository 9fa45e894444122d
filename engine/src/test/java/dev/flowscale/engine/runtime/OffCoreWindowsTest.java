package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A sample of two operators whose stretches are given by hand, with a CPU clock stepped by hand:
 * the time a window spent off the core goes off its longest stretch, and what the thread's run
 * delay does not account for (a blocking call) comes back.
 */
class OffCoreWindowsTest {
    private static final long READ = 1_000;

    private long cpu;
    private final OffCoreWindows windows = new OffCoreWindows(() -> cpu, READ);
    private final long[] sample = new long[2];

    @Test
    void aWindowOnItsCoreKeepsItsStretches() {
        assertThat(sampled(10_000, 20_000, 30_000, 0)).containsExactly(10_000, 20_000);
    }

    @Test
    void aPreemptionComesOffTheStretchItFellIn() {
        // 2 ms of the head's stretch was a wait for a core: the CPU clock ran only 30 us.
        assertThat(sampled(2_010_000, 20_000, 30_000, 2_000_000)).containsExactly(10_000, 20_000);
    }

    @Test
    void offCoreTimeTheRunDelayDoesNotHoldIsABlockingCallAndStays() {
        assertThat(sampled(10_000, 220_000, 30_000, 0)).containsExactly(10_000, 220_000);
    }

    @Test
    void withTheRunDelayUnknownEveryStretchStaysWallClock() {
        assertThat(sampled(2_010_000, 20_000, 30_000, OwnRunDelay.UNKNOWN))
                .containsExactly(2_010_000, 20_000);
    }

    @Test
    void onlyThePartOfOffCoreTimeBeyondTheRunDelayComesBack() {
        // 200 us off the core in the member's stretch, of which 50 us waiting for a core.
        assertThat(sampled(10_000, 220_000, 30_000, 50_000)).containsExactly(10_000, 170_000);
    }

    /**
     * One sample of one window: the head's stretch, the member's, the CPU time the window used and
     * the thread's run delay in it; returns the stretches kept.
     */
    private long[] sampled(long head, long member, long cpuUsed, long runDelay) {
        windows.begin(2, true);
        add(0, head);
        add(1, member);
        cpu += cpuUsed + READ;
        windows.close(sample);
        windows.finish(sample, runDelay);
        return sample;
    }

    private void add(int op, long nanos) {
        sample[op] += nanos;
        windows.add(op, nanos);
    }
}
