package dev.flowscale.engine.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The timing tests measure the cost itself, not the machine: lower bounds are exact by
 * construction, upper bounds leave room for a loaded two-core machine.
 */
class SyntheticCostTest {

    @Test
    void blockingCostHoldsTheRateDespiteParkOvershoot() {
        SyntheticCost.CostMeter meter = SyntheticCost.blocking(Duration.ofMillis(1)).meter();
        long start = System.nanoTime();
        for (int i = 0; i < 500; i++) {
            meter.charge();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // the meter parks early by the lateness it has measured, so the last record may end a few
        // µs early
        assertThat(seconds).isBetween(0.5 * 0.99, 0.5 * 1.5);
    }

    @Test
    void blockingCostBuildsNoCreditWhileIdle() {
        SyntheticCost.CostMeter meter = SyntheticCost.blocking(Duration.ofMillis(2)).meter();
        spinFor(Duration.ofMillis(20));
        long start = System.nanoTime();
        meter.charge();
        assertThat(System.nanoTime() - start)
                .isGreaterThanOrEqualTo(Duration.ofMillis(2).toNanos());
    }

    @Test
    void blockingCostCatchesUpWithinABusyPeriodButNotAcrossAWait() {
        // Costs of 50 ms leave room for a loaded machine's scheduling delays (a few ms each)
        // without
        // blurring what is measured: about 10 ms owed within a busy period against a full 50 ms.
        SyntheticCost.CostMeter meter = SyntheticCost.blocking(Duration.ofMillis(50)).meter();
        meter.charge();
        spinFor(Duration.ofMillis(40));
        long start = System.nanoTime();
        meter.charge();
        assertThat(System.nanoTime() - start)
                .as("a record delayed within a busy period is caught up")
                .isLessThan(Duration.ofMillis(40).toNanos());
        meter.idle();
        spinFor(Duration.ofMillis(100));
        start = System.nanoTime();
        meter.charge();
        // The deadline restarts from now: a full 50 ms, of which the meter wakes early by the
        // park overshoot it has learnt, at most half the cost (on a loaded machine the first
        // wait's overshoot taught it 11 ms, and this record took 39 ms). A record that carried
        // credit across the wait would take none of it.
        assertThat(System.nanoTime() - start)
                .as("after a wait the next record costs its full time, less the learnt overshoot")
                .isGreaterThanOrEqualTo(Duration.ofMillis(25).toNanos());
    }

    @Test
    void onASharedThreadABlockingCostDoesNotCatchUpTheOtherOperatorsTime() {
        // A chain: 40 ms of other operators' work between two records is not this meter's delay.
        long cost = Duration.ofMillis(50).toNanos();
        SyntheticCost.CostMeter meter =
                SyntheticCost.blocking(Duration.ofMillis(50)).meterOnSharedThread();
        long start = System.nanoTime();
        meter.charge();
        // The first record's own late wake-up is caught up by the next one, and it taught the
        // meter to wake up to an eighth of it early: on a loaded machine both can be large.
        long late = Math.max(0, System.nanoTime() - start - cost);
        long learnt = Math.min(cost / 2, late / 8 + 1);
        spinFor(Duration.ofMillis(40));
        start = System.nanoTime();
        meter.charge();
        // Had the 40 ms of other work counted as this meter's delay, the record would take 40 ms
        // less than this.
        assertThat(System.nanoTime() - start)
                .as("the next record costs its full time, less its own lateness (%d ns)", late)
                .isGreaterThanOrEqualTo(cost - late - learnt - Duration.ofMillis(1).toNanos());
    }

    @Test
    void cpuCostUsesItsCostInThreadCpuTimeForEachRecord() {
        SyntheticCost.CostMeter meter = SyntheticCost.cpu(Duration.ofNanos(100_000)).meter();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        for (int i = 0; i < 2000; i++) {
            meter.charge();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
        // 2000 x 100 us of the thread's own CPU time, however long a loaded machine made it wait
        // for a core in between (that stretches the wall time only)
        assertThat(cpuSeconds).as("CPU time of the working thread").isBetween(0.2, 1.0);
        assertThat(seconds).isGreaterThanOrEqualTo(cpuSeconds);
    }

    @Test
    void cpuCostWorksUntilTheThreadUsedItsCostNotUntilAWallClockDeadline() {
        // A thread that gets a core half the time: its CPU clock runs at half the wall clock's
        // rate.
        long origin = System.nanoTime();
        SyntheticCost.CostMeter meter =
                new CpuCostMeter(
                        Duration.ofMillis(10).toNanos(), () -> (System.nanoTime() - origin) / 2);
        long start = System.nanoTime();
        meter.charge(3);
        assertThat(System.nanoTime() - start)
                .as("30 ms of work at half a core")
                .isGreaterThanOrEqualTo(Duration.ofMillis(60).toNanos());
    }

    @Test
    void blockingCostDoesNotCatchUpTheTimeItsThreadWaitedForACore() {
        // The run delay grows by 5 ms between any two reads: 10 ms of waiting for a core per
        // record. A remote call's reply is awaited, then a core: the record takes 20 + 10 ms.
        long[] runDelay = {0};
        SyntheticCost.CostMeter meter =
                SyntheticCost.blocking(Duration.ofMillis(20))
                        .meter(false, () -> runDelay[0] += Duration.ofMillis(5).toNanos());
        long start = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            meter.charge();
        }
        // The meter wakes early by the park overshoot it has learnt, at most half the cost once.
        assertThat(System.nanoTime() - start)
                .as("ten records, each 20 ms parked and 10 ms waiting for a core")
                .isGreaterThanOrEqualTo(Duration.ofMillis(10 * 30 - 10).toNanos());
    }

    @Test
    void chargingABatchCostsEachRecord() {
        SyntheticCost.CostMeter meter = SyntheticCost.cpu(Duration.ofMillis(1)).meter();
        long start = System.nanoTime();
        meter.charge(30);
        assertThat(System.nanoTime() - start)
                .isGreaterThanOrEqualTo(Duration.ofMillis(30).toNanos());
    }

    @Test
    void noneCostsNothing() {
        SyntheticCost none = SyntheticCost.none();
        none.meter().charge();
        none.meter().charge(1_000_000);
        assertThat(none.isNone()).isTrue();
        assertThat(none.perRecord()).isZero();
        assertThat(none).hasToString("none");
    }

    @Test
    void parsesEveryForm() {
        assertThat(SyntheticCost.parse("none")).isEqualTo(SyntheticCost.none());
        assertThat(SyntheticCost.parse("cpu:200us"))
                .isEqualTo(SyntheticCost.cpu(Duration.ofNanos(200_000)));
        assertThat(SyntheticCost.parse("sleep:1ms"))
                .isEqualTo(SyntheticCost.blocking(Duration.ofMillis(1)));
        assertThat(SyntheticCost.parse(" Blocking:1ms "))
                .isEqualTo(SyntheticCost.blocking(Duration.ofMillis(1)));
        assertThat(SyntheticCost.parse("cpu:500ns").perRecord()).isEqualTo(Duration.ofNanos(500));
        assertThat(SyntheticCost.parse("blocking:0.5ms").perRecord())
                .isEqualTo(Duration.ofNanos(500_000));
        assertThat(SyntheticCost.parse("blocking:2s").perRecord()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void describesItselfPerRecord() {
        assertThat(SyntheticCost.parse("sleep:1ms")).hasToString("blocking 1ms/record");
        assertThat(SyntheticCost.parse("cpu:200us")).hasToString("cpu 200us/record");
        assertThat(SyntheticCost.parse("cpu:1500ns")).hasToString("cpu 1500ns/record");
        assertThat(SyntheticCost.parse("cpu:0.5s")).hasToString("cpu 500ms/record");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "cpu",
                "cpu:",
                "cpu:200",
                "cpu:200 us",
                "cpu:-1ms",
                "cpu:1.2.3ms",
                "gpu:1ms",
                "sleep:1d",
                "blocking:ms",
                "nothing"
            })
    void rejectsBadFormsListingTheValidOnes(String spec) {
        assertThatThrownBy(() -> SyntheticCost.parse(spec))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining(SyntheticCost.VALID_FORMS);
    }

    @Test
    void rejectsNonPositiveOrHugeCosts() {
        assertThatThrownBy(() -> SyntheticCost.parse("cpu:0ms"))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("perRecord must be > 0")
                .hasMessageContaining("none");
        assertThatThrownBy(() -> SyntheticCost.parse("sleep:1h"))
                .hasMessageContaining("at most 1 minute");
        assertThatThrownBy(() -> SyntheticCost.blocking(Duration.ofMinutes(2)))
                .hasMessageContaining("at most 1 minute");
        assertThatThrownBy(() -> SyntheticCost.cpu(null)).hasMessageContaining("perRecord");
    }

    private static void spinFor(Duration idle) {
        long end = System.nanoTime() + idle.toNanos();
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
