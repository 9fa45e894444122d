package dev.flowscale.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KeyGroupCounterTest {

    @Test
    void countsArePublishedWithTheBatchThatHoldsThem() {
        InstanceCounterRecorder metrics = new InstanceCounterRecorder("op", 0, false, 8, 4);
        KeyGroupCounter counter = metrics.keyGroupCounter();
        counter.count(0);
        counter.count(3);
        counter.count(3);

        assertThat(metrics.snapshot(0).keyGroupRecords()).containsExactly(0, 0, 0, 0);
        metrics.addRecords(3, 3);
        counter.count(3);
        metrics.addRecords(1, 1);
        InstanceCounts snapshot = metrics.snapshot(0);
        assertThat(snapshot.keyGroupFirst()).isEqualTo(8);
        assertThat(snapshot.keyGroupRecords()).containsExactly(1, 0, 0, 3);
    }

    @Test
    void anInstanceThatIsNotKeyedHasNoCounter() {
        InstanceCounterRecorder metrics = new InstanceCounterRecorder("op", 0, false);

        assertThat(metrics.keyGroupCounter()).isNull();
        assertThat(metrics.snapshot(0).keyGroupRecords()).isEmpty();
    }

    @Test
    void aReaderOnAnotherThreadAlwaysSeesKeyGroupsThatAddUpToTheRecordsIn() throws Exception {
        InstanceCounterRecorder metrics = new InstanceCounterRecorder("op", 0, false, 0, 64);
        KeyGroupCounter counter = metrics.keyGroupCounter();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong mismatches = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        Thread reader =
                new Thread(
                        () -> {
                            while (!done.get()) {
                                InstanceCounts s = metrics.snapshot(0);
                                if (Arrays.stream(s.keyGroupRecords()).sum() != s.recordsIn()) {
                                    mismatches.incrementAndGet();
                                }
                                reads.incrementAndGet();
                            }
                        });
        reader.start();
        for (int batch = 0; batch < 200_000; batch++) {
            for (int r = 0; r < 5; r++) {
                counter.count((batch * 7 + r) % 64);
            }
            metrics.addRecords(5, 5);
        }
        done.set(true);
        reader.join();

        assertThat(reads.get()).isPositive();
        assertThat(mismatches.get()).isZero();
        assertThat(Arrays.stream(metrics.snapshot(0).keyGroupRecords()).sum()).isEqualTo(1_000_000);
    }
}
