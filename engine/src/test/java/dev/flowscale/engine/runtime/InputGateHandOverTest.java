package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A fast producer feeding a slower consumer through a channel of four batches: every batch arrives
 * once and in order, and the producer blocks at most once per two batches (it is woken when half
 * the channel is free, not at every batch taken).
 */
class InputGateHandOverTest {
    private static final int BATCHES = 2_000;
    private static final int CAPACITY = 4;

    /** Keeps the consumer's work from being optimized away. */
    private static volatile long sink;

    @Test
    void aBlockedProducerIsWokenWhenHalfTheChannelIsFree() throws Exception {
        InputGate gate = new InputGate(1, CAPACITY, new Cancellation());
        gate.limitRecords(Integer.MAX_VALUE);
        PhaseClock producer =
                new PhaseClock(new InstanceCounterRecorder("producer", 0, true), true);
        AtomicInteger waits = new AtomicInteger();
        producer.onWait(waits::incrementAndGet);
        producer.start();
        CompletableFuture<Void> produced =
                CompletableFuture.runAsync(
                        () -> {
                            for (int i = 0; i < BATCHES; i++) {
                                put(gate, i, producer);
                            }
                        });
        for (int i = 0; i < BATCHES; i++) {
            Batch batch = gate.take();
            assertThat(batch.records[0]).isEqualTo(i);
            work();
        }
        produced.get(30, TimeUnit.SECONDS);
        // Woken at every batch taken, the producer blocked about once per batch.
        assertThat(waits.get()).isLessThanOrEqualTo(BATCHES / 2 + 1);
    }

    private static void put(InputGate gate, int value, PhaseClock clock) {
        try {
            gate.put(0, Batch.data(new Object[] {value}, 1), clock);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Some microseconds of work per batch, so that the producer is the faster side. */
    private static void work() {
        long x = sink;
        for (int i = 0; i < 20_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }
}
