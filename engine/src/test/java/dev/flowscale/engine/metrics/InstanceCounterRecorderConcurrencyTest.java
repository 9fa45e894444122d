package dev.flowscale.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Snapshots read while the task thread writes are consistent (the seqlock retries torn reads). */
class InstanceCounterRecorderConcurrencyTest {
    @Test
    void everySnapshotTakenDuringWritesAddsUpAndNeverGoesBack() throws Exception {
        InstanceCounterRecorder metrics = new InstanceCounterRecorder("op", 0, false);
        AtomicBoolean stop = new AtomicBoolean();
        long start = 1_000L;
        metrics.start(start);
        Thread writer =
                new Thread(
                        () -> {
                            long now = start;
                            Phase[] phases = {
                                Phase.WAIT_INPUT, Phase.USEFUL, Phase.BACKPRESSURE, Phase.USEFUL
                            };
                            for (int i = 0; !stop.get(); i++) {
                                now += 7;
                                metrics.enter(phases[i & 3], now);
                                metrics.addRecords(3, 2);
                            }
                        });
        AtomicReference<String> broken = new AtomicReference<>();
        writer.start();
        long lastIn = 0;
        for (int i = 0; i < 300_000 && broken.get() == null; i++) {
            // Far in the future of the writer's clock, so the open phase is never negative.
            InstanceCounts s = metrics.snapshot(Long.MAX_VALUE / 2);
            long phases = s.usefulNanos() + s.waitInputNanos() + s.backpressureNanos();
            if (phases != s.observedNanos()) {
                broken.set("phases add up to " + phases + " but observed is " + s.observedNanos());
            } else if (s.recordsIn() < lastIn || s.recordsIn() * 2 != s.recordsOut() * 3) {
                broken.set(
                        "records in "
                                + s.recordsIn()
                                + " after "
                                + lastIn
                                + ", out "
                                + s.recordsOut());
            }
            lastIn = s.recordsIn();
        }
        stop.set(true);
        writer.join();
        assertThat(broken.get()).isNull();
        assertThat(lastIn).as("the writer made progress while read").isPositive();
    }
}
