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
    private long timedRecords;

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
        runBatches(1, 1, RECORDS_PER_BATCH, 300_000_000L);
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

    /**
     * Batches of 2,000 records of a few hundred nanoseconds each: a sample ends at the first record
     * handed on after {@link ChainTiming#SAMPLE_NANOS}, so it times a part of its batch, short
     * enough to be seldom preempted, and still stands for the whole batch (the shares hold).
     */
    @Test
    void aLongBatchIsTimedForItsFirstRecordsOnlyAndTheSharesHold() {
        while (timedBatches < 20) {
            runBatches(100, 400, 2_000, 10_000_000L);
        }
        long from = System.nanoTime();
        double headFrom = head.snapshot(from).usefulNanos();
        double memberFrom = member.snapshot(from).usefulNanos();
        timedRecords = 0;
        int timedFrom = timedBatches;
        while (timedBatches < timedFrom + 60) {
            runBatches(100, 400, 2_000, 10_000_000L);
        }
        long to = System.nanoTime();
        double headUseful = head.snapshot(to).usefulNanos() - headFrom;
        double memberUseful = member.snapshot(to).usefulNanos() - memberFrom;

        assertThat((double) timedRecords / (timedBatches - timedFrom))
                .as("records timed per timed batch of 2,000")
                .isLessThan(1_000);
        assertThat(memberUseful / (headUseful + memberUseful)).isBetween(0.7, 0.9);
    }

    /**
     * Runs batches of {@code records} for {@code nanos}: per record, {@code headWork} spins at the
     * head, then {@code memberWork} in the chained operator, handed on as a chain link does.
     */
    private void runBatches(int headWork, int memberWork, int records, long nanos) {
        long end = System.nanoTime() + nanos;
        long now;
        while ((now = System.nanoTime()) < end) {
            timing.tick(now);
            timing.beginBatch();
            if (timing.active) {
                timedBatches++;
            }
            for (int r = 0; r < records; r++) {
                spin(headWork);
                if (timing.active) {
                    timedRecords++;
                    int from = timing.enter(1);
                    spin(memberWork);
                    timing.exit(from);
                } else {
                    spin(memberWork);
                }
                timing.handedOn();
            }
            timing.endBatch();
            batches++;
        }
    }

    private void runUntilTimed(int headWork, int memberWork, int timed) {
        while (timedBatches < timed) {
            runBatches(headWork, memberWork, RECORDS_PER_BATCH, 10_000_000L);
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
