package dev.flowscale.engine.testing;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.checkpoint.SnapshotInspector;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A keyed counting job over a fixed, replayable input: records 0..n-1 with key "k" + (seq % keys),
 * through a map ({@link #MAP}, a tap for tests to inject faults) and a keyed count in value state
 * into a sink. Its final state is known in advance ({@link #expected}), so a test can prove that no
 * record was lost or counted twice across checkpoints, failures and rescales.
 */
public final class CountingJob {
    public static final String NAME = "counting";
    public static final String SOURCE = "numbers";
    public static final String MAP = "tag";
    public static final String COUNT = "count";
    public static final StateDescriptor<Long> COUNT_STATE =
            StateDescriptor.value("count", Long.class);

    /**
     * How long nothing may move before the job counts as quiet: many records at the tests' rates.
     */
    private static final Duration QUIET = Duration.ofMillis(300);

    private CountingJob() {}

    /** As fast as the job goes, with the given parallelism per operator (others at 1). */
    public static JobGraph graph(long records, int keys, Map<String, Integer> parallelism) {
        return graph(null, records, keys, parallelism, x -> x);
    }

    /** At {@code rate} (null: as fast as the job goes), every record through {@code tap}. */
    public static JobGraph graph(
            RateProfile rate,
            long records,
            int keys,
            Map<String, Integer> parallelism,
            MapFunction<Long, Long> tap) {
        return graph(source(rate, records), keys, parallelism, tap);
    }

    /** With a source of the test's own (a wrapper around {@link #source}, say). */
    public static JobGraph graph(
            SourceFunction<Long> source,
            int keys,
            Map<String, Integer> parallelism,
            MapFunction<Long, Long> tap) {
        JobBuilder job = JobBuilder.named(NAME);
        job.source(SOURCE, source)
                .map(MAP, tap)
                .keyBy(seq -> "k" + (seq % keys))
                .process(COUNT, Count::new)
                .sink("sink", Sinks.counting());
        parallelism.forEach(job::parallelism);
        return job.build();
    }

    /** The replayable source of records 0..records-1 at {@code rate} (null: unthrottled). */
    public static SourceFunction<Long> source(RateProfile rate, long records) {
        return Sources.replayable(rate, records, seq -> seq);
    }

    /** The per-key counts once every record is processed exactly once. */
    public static Map<Object, Long> expected(long records, int keys) {
        Map<Object, Long> counts = new HashMap<>();
        for (long seq = 0; seq < records; seq++) {
            counts.merge("k" + (seq % keys), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * Waits until every record is counted, stops the job with a savepoint and returns the per-key
     * counts that savepoint holds: compare with {@link #expected}.
     */
    public static Map<Object, Long> finalCounts(RunningJob job, Duration timeout)
            throws InterruptedException {
        awaitQuiescence(job, timeout);
        Path finalState = job.stopWithSavepoint(timeout);
        return SnapshotInspector.mergedKeyedState(finalState, job.graph(), COUNT, COUNT_STATE);
    }

    /**
     * Waits until nothing moves any more: the source has emitted its last record and the counting
     * operator has processed it (two samples {@link #QUIET} apart agree, the source owes nothing by
     * its schedule, no record is queued).
     */
    public static void awaitQuiescence(RunningJob job, Duration timeout) {
        AtomicReference<JobMetricsSnapshot> previous = new AtomicReference<>(job.metrics());
        AtomicLong previousAt = new AtomicLong(System.nanoTime());
        Await.until(
                timeout,
                "job '" + NAME + "' to process every record",
                () -> {
                    if (System.nanoTime() - previousAt.get() < QUIET.toNanos()) {
                        return false;
                    }
                    JobMetricsSnapshot before = previous.get();
                    JobMetricsSnapshot now = job.metrics();
                    previous.set(now);
                    previousAt.set(System.nanoTime());
                    return job.status() == RunningJob.Status.RUNNING
                            && before.runId().equals(now.runId())
                            && counted(before) == counted(now)
                            && emitted(now) == counted(now)
                            && owed(now) == 0
                            && job.queuedRecords() == 0;
                });
    }

    /** Waits until the counting operator has counted at least {@code records} records. */
    public static void awaitCounted(RunningJob job, long records, Duration timeout) {
        Await.until(timeout, records + " records counted", () -> counted(job.metrics()) >= records);
    }

    private static long counted(JobMetricsSnapshot s) {
        return s.instancesOf(COUNT).stream().mapToLong(i -> i.recordsIn()).sum();
    }

    /**
     * What a throttled source owes by its schedule, read live: a source that was merely not
     * scheduled for {@link #QUIET} on a loaded machine owes the records that fell due meanwhile, so
     * a stall is not taken for the end of its input.
     */
    private static long owed(JobMetricsSnapshot s) {
        return s.instancesOf(SOURCE).stream().mapToLong(i -> i.backlog()).sum();
    }

    private static long emitted(JobMetricsSnapshot s) {
        return s.instancesOf(SOURCE).stream().mapToLong(i -> i.recordsOut()).sum();
    }

    /** Counts records per key in value state. */
    public static final class Count extends KeyedProcessFunction<String, Long, Long> {
        private ValueState<Long> count;

        @Override
        public void open(KeyedRuntimeContext context) {
            count = context.valueState(COUNT_STATE);
        }

        @Override
        public void processElement(Long value, Context<String> context, Collector<Long> out) {
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(next);
        }
    }
}
