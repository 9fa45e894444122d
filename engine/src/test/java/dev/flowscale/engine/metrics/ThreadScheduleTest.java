package dev.flowscale.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThreadScheduleTest {

    @Test
    void aThreadReadsItsKernelIdAndItsRunDelayIsKnownOnLinux() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/schedstat")), "Linux schedstat only");
        AtomicLong id = new AtomicLong();
        Thread t = new Thread(() -> id.set(ThreadSchedule.currentThreadId()));
        t.start();
        t.join();
        assertThat(id.get()).isPositive();
        long self = ThreadSchedule.currentThreadId();
        assertThat(self).isPositive().isNotEqualTo(id.get());
        assertThat(ThreadSchedule.runDelayNanos(self)).isNotNegative();
    }

    @Test
    void anUnknownThreadsRunDelayIsUnknown() {
        assertThat(ThreadSchedule.runDelayNanos(-1)).isNull();
        assertThat(ThreadSchedule.runDelayNanos(Long.MAX_VALUE)).isNull();
    }
}
