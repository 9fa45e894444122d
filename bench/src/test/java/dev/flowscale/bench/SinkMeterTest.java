package dev.flowscale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class SinkMeterTest {

    @Test
    void aThreadThatEndsBeforeTheLastRecordStillCountsInTheJavaThreadsCpu() throws Exception {
        assumeTrue(!JvmInternalCpu.nanosByGroup().isEmpty(), "needs Linux's /proc");
        SinkMeter meter = SinkMeter.arm(2, 0.5);
        SinkMeter.record();
        long[] spent = new long[1];
        Thread worker = new Thread(() -> spent[0] = spin(200_000_000L));
        worker.start();
        worker.join();
        SinkMeter.record();

        assertThat(meter.complete()).isTrue();
        // The ended worker's CPU time is in the figure: its own, less the JVM threads' 10 ms tick
        // of the process's CPU clock on either side.
        assertThat(meter.measuredThreadCpuSeconds() * 1e9).isGreaterThan(spent[0] - 2e7);
    }

    /** Spins until this thread has used {@code nanos} of CPU; returns what it used. */
    private static long spin(long nanos) {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        long start = bean.getCurrentThreadCpuTime();
        long used = 0;
        while (used < nanos) {
            used = bean.getCurrentThreadCpuTime() - start;
        }
        return used;
    }
}
