package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.testsupport.Await;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Three operators doing a counted amount of CPU work per record (1 : 8 : 1), chained on one thread
 * and then each on a thread of its own. Each operator's records per CPU second must be the same in
 * both layouts: unchained it is its own thread's CPU time, chained its part of the chain thread's
 * by its sampled share of the useful time ({@link ChainThreadTimes}, {@link ChainTiming}). CPU time
 * is what a loaded machine does not stretch (a preempted thread uses none), so the comparison holds
 * under load; the work is counted iterations, not a deadline that preemption would shorten.
 */
class ChainedCpuRatesTest {
    /**
     * Iterations per record; about 1 ns each. Tens of microseconds per record, so that what the
     * unchained operators' threads spend per batch, handing it over and waking after a wait (tens
     * of microseconds each on a loaded machine), stays a percent or two of their CPU time: at 4 µs
     * a record, the operator waiting for input read 140,843 records per CPU second unchained
     * against 190,000 chained and its twin upstream 194,311.
     */
    private static final Map<String, Integer> WORK = new LinkedHashMap<>();

    static {
        WORK.put("light", 40_000);
        WORK.put("heavy", 320_000);
        WORK.put("last", 40_000);
    }

    /**
     * The shares' samples take the thread's time off its core out of each operator's stretches
     * ({@link OffCoreWindows}), so a preemption no longer goes to the operator that ran; what is
     * left is the runs' own spread on a loaded machine: the two layouts run at different moments
     * beside other processes, and one thread or five share the cores' caches differently. In three
     * runs at a load of 17 to 25 on two cores the heavy operator read 12-13 % more records per CPU
     * second chained than unchained, the light ones within 6 %. At a load of 30 to 59 it failed in
     * all three runs: a light operator read 25-30 % fewer records per CPU second chained than
     * unchained, so it stays disabled. An even split of the chain's CPU time, or of its useful
     * time, is 60 % off for the light operators and 220 % for the heavy one; before the off-core
     * correction, runs beside two spinning processes read the light operator at 0.35 to 2.6 times
     * its unchained rate.
     */
    private static final double TOLERANCE = 0.25;

    /** Records through the last operator in the measured window. */
    private static final long WINDOW_RECORDS = 2_000;

    private static final Duration LIMIT = Duration.ofSeconds(120);

    /** Keeps the work from being optimized away. */
    private static volatile long sink;

    @Test
    @Disabled(
            "not yet load-proof: at a load of 17-25 on two cores it held in three runs (light"
                    + " operators within 6 %, the heavy one 12-13 % above), at 30-59 it failed in"
                    + " all three (a light operator 25-30 % below its unchained rate per CPU"
                    + " second); run it on a quieter machine")
    void eachOperatorsRecordsPerCpuSecondAreTheSameChainedAndUnchained() throws Exception {
        Map<String, Double> chained = recordsPerCpuSecond(graph());
        Map<String, Double> unchained = recordsPerCpuSecond(graph().unchained());

        System.out.println(
                "records per CPU second, chained " + chained + ", unchained " + unchained);
        for (String op : WORK.keySet()) {
            assertThat(chained.get(op))
                    .as(op + " chained vs unchained " + unchained.get(op) + " records/CPU s")
                    .isBetween(
                            (1 - TOLERANCE) * unchained.get(op),
                            (1 + TOLERANCE) * unchained.get(op));
        }
    }

    private static JobGraph graph() {
        JobBuilder job = JobBuilder.named("cpu-rates");
        DataStream<Long> stream = job.source("source", Sources.generator(Long.MAX_VALUE, s -> s));
        for (Map.Entry<String, Integer> op : WORK.entrySet()) {
            stream = stream.map(op.getKey(), work(op.getValue()));
        }
        stream.sink("sink", Sinks.counting());
        return job.build();
    }

    private static MapFunction<Long, Long> work(int iterations) {
        return x -> {
            long v = x;
            for (int i = 0; i < iterations; i++) {
                v = v * 6364136223846793005L + 1442695040888963407L;
            }
            sink = v;
            return x;
        };
    }

    /** Each operator's records over its CPU seconds, in a window of a fixed number of records. */
    private static Map<String, Double> recordsPerCpuSecond(JobGraph graph) throws Exception {
        try (RunningJob job = RunningJob.start(graph, JobConfig.defaults())) {
            // Past the JIT's compilation and the first estimates of the shares.
            awaitRecords(job, 200);
            JobMetricsSnapshot start = job.metrics();
            assumeTrue(start.find("heavy", 0).cpuNanos() != null, "thread CPU time measured");
            awaitRecords(job, start.find("last", 0).recordsIn() + WINDOW_RECORDS);
            JobMetricsSnapshot end = job.metrics();
            Map<String, Double> rates = new LinkedHashMap<>();
            for (String op : WORK.keySet()) {
                InstanceCounts a = start.find(op, 0);
                InstanceCounts b = end.find(op, 0);
                rates.put(
                        op,
                        (b.recordsIn() - a.recordsIn()) / ((b.cpuNanos() - a.cpuNanos()) / 1e9));
            }
            return rates;
        }
    }

    private static void awaitRecords(RunningJob job, long records) {
        Await.until(
                LIMIT,
                records + " records through the last operator",
                () -> job.metrics().find("last", 0).recordsIn() >= records);
    }
}
