package dev.flowscale.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void aComputingThreadsCpuTimeGrowsAndAnEndedThreadsIsUnknown() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread busy =
                new Thread(
                        () -> {
                            started.countDown();
                            long x = 0;
                            while (!stop.get()) {
                                x += System.nanoTime() & 1;
                            }
                            assertThat(x).isNotNegative();
                        });
        busy.start();
        started.await();
        long first = ThreadCpu.nanos(busy);
        long later = first;
        while (later <= first) { // polls until the scheduler has run it a while
            Thread.onSpinWait();
            later = ThreadCpu.nanos(busy);
        }
        assertThat(later).isGreaterThan(first);
        stop.set(true);
        busy.join();
        assertThat(ThreadCpu.nanos(busy)).isNull();
        assertThat(ThreadCpu.nanos(null)).isNull();
    }
}
