package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import org.junit.jupiter.api.Test;

/**
 * Drives a two-operator chain's timing on this thread as a chain head does: a tick after each
 * batch, every record handed to the chained operator through {@link ChainTiming#enter} and {@link
 * ChainTiming#exit} while a batch is timed. Whether the shares it estimates are right is {@link
 * ChainedUsefulTimeAccuracyTest}'s concern; this one checks what the timing costs.
 */
class ChainTimingTest {
    private static final int RECORDS_PER_BATCH = 100;

    /** Keeps the spin work from being optimized away. */
    private static volatile long sink;

    private final InstanceCounterRecorder head = new InstanceCounterRecorder("head", 0, false);
    private final InstanceCounterRecorder member = new InstanceCounterRecorder("member", 0, false);
    private final ChainTiming timing = new ChainTiming(true);

    private int batches;
    private int timedBatches;

    ChainTimingTest() {
        timing.add(head);
        timing.add(member);
        long now = System.nanoTime();
        head.start(now);
        member.start(now);
    }

    @Test
    void timingCheapRecordsCostsTheChainAtMostItsBudget() {
        long start = System.nanoTime();
        runBatches(1, 1, 300_000_000L);
        long elapsed = System.nanoTime() - start;
        long readsPerTimedBatch = 2L * RECORDS_PER_BATCH + 2;
        double readCost =
                (double) timedBatches * readsPerTimedBatch * Math.max(1, ChainTiming.READ_NANOS);
        // Timing one batch in 64 of records this cheap made the clock reads cost several percent
        // of the chain's time; the budget keeps them under half a percent.
        assertThat(readCost / elapsed).isLessThan(0.005);
        assertThat(timedBatches).as("batches timed of " + batches).isGreaterThan(3);
    }

    /**
     * The member does four times the head's counted work per record: its share of the useful time
     * after the first estimates must be about 0.8 (the head's loop and the calls into the member
     * add a little to the head). Counted in samples rather than time, so that a loaded machine only
     * makes it slower; an even split, or shares by record count, would give 0.5.
     */
    @Test
    void theSharesFollowEachOperatorsCountedWork() {
        runUntilTimed(100, 400, 20);
        long from = System.nanoTime();
        double headFrom = head.snapshot(from).usefulNanos();
        double memberFrom = member.snapshot(from).usefulNanos();
        runUntilTimed(100, 400, timedBatches + 60);
        long to = System.nanoTime();
        double headUseful = head.snapshot(to).usefulNanos() - headFrom;
        double memberUseful = member.snapshot(to).usefulNanos() - memberFrom;

        assertThat(memberUseful / (headUseful + memberUseful)).isBetween(0.7, 0.9);
    }

    private void runUntilTimed(int headWork, int memberWork, int timed) {
        while (timedBatches < timed) {
            runBatches(headWork, memberWork, 10_000_000L);
        }
    }

    /**
     * Runs batches for {@code nanos}: per record, {@code headWork} spins at the head, then {@code
     * memberWork} in the chained operator.
     */
    private void runBatches(int headWork, int memberWork, long nanos) {
        long end = System.nanoTime() + nanos;
        long now;
        while ((now = System.nanoTime()) < end) {
            timing.tick(now);
            timing.beginBatch();
            if (timing.active) {
                timedBatches++;
            }
            for (int r = 0; r < RECORDS_PER_BATCH; r++) {
                spin(headWork);
                if (timing.active) {
                    int from = timing.enter(1);
                    spin(memberWork);
                    timing.exit(from);
                } else {
                    spin(memberWork);
                }
            }
            timing.endBatch();
            batches++;
        }
    }

    private static void spin(int iterations) {
        long x = sink;
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }
}
