package dev.flowscale.reconfig;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A keyed counting job over a fixed, replayable input: records 0..n-1 at a constant rate, key
 * "k" + (seq % keys), counted per key in value state. Its final state is known in advance.
 */
final class CountingJob {
    static final String NAME = "counting";
    static final String SOURCE = "numbers";
    static final String COUNT = "count";
    /** How long nothing may move before the job counts as quiet: many records at the test's rates. */
    private static final Duration QUIET = Duration.ofMillis(300);
    static final StateDescriptor<Long> COUNT_STATE = StateDescriptor.value("count", Long.class);

    private CountingJob() {
    }

    static JobGraph graph(double rate, long records, int keys, int countParallelism) {
        return graph(source(rate, records), keys, countParallelism);
    }

    static SourceFunction<Long> source(double rate, long records) {
        return Sources.replayable(RateProfile.constant(rate), records, seq -> seq);
    }

    static JobGraph graph(SourceFunction<Long> source, int keys, int countParallelism) {
        JobBuilder job = JobBuilder.named(NAME);
        job.source(SOURCE, source)
                .keyBy(seq -> "k" + (seq % keys))
                .process(COUNT, Count::new).parallelism(countParallelism).sink("sink", Sinks.counting());
        return job.build();
    }

    static Map<Object, Long> expected(long records, int keys) {
        Map<Object, Long> counts = new HashMap<>();
        for (long seq = 0; seq < records; seq++) {
            counts.merge("k" + (seq % keys), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * Waits until nothing moves any more: the source has emitted its last record and the counting
     * operator has processed it (two samples a poll apart agree, no record is queued).
     */
    static void awaitQuiescence(RunningJob job, Duration timeout) {
        AtomicReference<JobMetricsSnapshot> previous = new AtomicReference<>(job.metrics());
        AtomicLong previousAt = new AtomicLong(System.nanoTime());
        Await.until(timeout, Duration.ofMillis(50), "job '" + NAME + "' to process every record", () -> {
            if (System.nanoTime() - previousAt.get() < QUIET.toNanos()) {
                return false;
            }
            JobMetricsSnapshot before = previous.get();
            JobMetricsSnapshot now = job.metrics();
            previous.set(now);
            previousAt.set(System.nanoTime());
            return job.status() == RunningJob.Status.RUNNING && before.runId().equals(now.runId())
                    && counted(before) == counted(now) && emitted(now) == counted(now) && job.queuedRecords() == 0;
        });
    }

    private static long counted(JobMetricsSnapshot s) {
        return s.instancesOf(COUNT).stream().mapToLong(i -> i.recordsIn()).sum();
    }

    private static long emitted(JobMetricsSnapshot s) {
        return s.instancesOf(SOURCE).stream().mapToLong(i -> i.recordsOut()).sum();
    }

    /** Counts records per key in value state. */
    static final class Count extends KeyedProcessFunction<String, Long, Long> {
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
