package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two producers share one gate whose channels hold two batches and a few records, while the
 * consumer holds channels back (as barrier alignment does) and changes the record limit (as
 * debloating does). The gate's cancellation check runs once an hour, so a wait that no one signals
 * would stall the test: every batch must arrive, in order per channel, well within the deadline.
 */
class InputGateWakeUpTest {
    private static final int BATCHES = 20_000;
    private static final int CHANNELS = 2;

    /** Every this many batches a producer sends a marker; the consumer aligns on the markers. */
    private static final int MARKER_EVERY = 97;

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @Test
    void twoProducersAndAnAligningConsumerNeverWaitForTheTimedCheck() throws Exception {
        InputGate gate = new InputGate(CHANNELS, 2, new Cancellation(), TimeUnit.HOURS.toNanos(1));
        gate.limitRecords(3);
        CompletableFuture<?>[] producers = new CompletableFuture<?>[CHANNELS];
        for (int c = 0; c < CHANNELS; c++) {
            int channel = c;
            producers[c] = CompletableFuture.runAsync(() -> produce(gate, channel));
        }
        CompletableFuture<int[]> consumed = CompletableFuture.supplyAsync(() -> consume(gate));

        int[] received = consumed.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        CompletableFuture.allOf(producers).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertThat(received).containsOnly(BATCHES);
    }

    /** Batches of one to three records numbered in order, with a marker every so often. */
    private static void produce(InputGate gate, int channel) {
        PhaseClock clock =
                new PhaseClock(new InstanceCounterRecorder("producer", channel, true), true);
        clock.start();
        try {
            for (int i = 0; i < BATCHES; i++) {
                int size = 1 + i % 3;
                Object[] records = new Object[size];
                records[0] = i;
                gate.put(channel, Batch.data(records, size), clock);
                if (i % MARKER_EVERY == 0) {
                    gate.put(channel, Batch.watermark(i), clock);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Takes every batch, checking each channel's order; a marker holds its channel back until the
     * other channel's marker has come, and the record limit changes every few hundred batches.
     */
    private static int[] consume(InputGate gate) {
        int[] received = new int[CHANNELS];
        int aligned = 0;
        try {
            for (int taken = 0; received[0] + received[1] < CHANNELS * BATCHES; taken++) {
                Batch batch = taken % 2 == 0 ? gate.take() : gate.poll(TimeUnit.HOURS.toNanos(1));
                int channel = gate.lastChannel();
                if (batch.kind == Batch.Kind.WATERMARK) {
                    gate.block(channel);
                    if (++aligned == CHANNELS) {
                        gate.unblockAll();
                        aligned = 0;
                    }
                    continue;
                }
                assertThat(batch.records[0]).isEqualTo(received[channel]);
                received[channel]++;
                if (taken % 300 == 0) {
                    gate.limitRecords(1 + taken / 300 % 5);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return received;
    }
}
