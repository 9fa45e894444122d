package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.api.OperatorRuntimeContext;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A keyed counting job over a fixed, replayable input: records 0..n-1 with key "k" + (seq % keys),
 * through a map and a keyed count into a sink. Its final state is known in advance.
 */
final class KeyedCountingJob {
    static final String SOURCE = "numbers";
    static final String MAP = "tag";
    static final String COUNT = "count";
    static final StateDescriptor<Long> COUNT_STATE = StateDescriptor.value("count", Long.class);

    private KeyedCountingJob() {
    }

    static JobGraph graph(long records, int keys, Map<String, Integer> parallelism, MapFunction<Long, Long> tap) {
        return graph(null, records, keys, parallelism, tap);
    }

    static JobGraph graph(RateProfile rate, long records, int keys, Map<String, Integer> parallelism,
                          MapFunction<Long, Long> tap) {
        JobBuilder job = JobBuilder.named("counting");
        job.source(SOURCE, Sources.replayable(rate, records, seq -> seq))
                .map(MAP, tap).keyBy(seq -> "k" + (seq % keys))
                .process(COUNT, Count::new).sink("sink", Sinks.counting());
        parallelism.forEach(job::parallelism);
        return job.build();
    }

    static JobGraph graph(long records, int keys, Map<String, Integer> parallelism) {
        return graph(records, keys, parallelism, x -> x);
    }

    static Map<Object, Long> expected(long records, int keys) {
        Map<Object, Long> counts = new HashMap<>();
        for (long seq = 0; seq < records; seq++) {
            counts.merge("k" + (seq % keys), 1L, Long::sum);
        }
        return counts;
    }

    /** Waits until nothing moves any more: every record the source will ever emit is processed. */
    static void awaitQuiescence(RunningJob job, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JobMetricsSnapshot before = job.metrics();
            Thread.sleep(150);
            JobMetricsSnapshot after = job.metrics();
            if (job.status() == RunningJob.Status.RUNNING && before.runId().equals(after.runId())
                    && processed(before) == processed(after) && emitted(after) == processed(after)
                    && job.queuedRecords() == 0) {
                return;
            }
        }
        throw new AssertionError("job did not quiesce within " + timeout);
    }

    private static long processed(JobMetricsSnapshot s) {
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

    /** Keeps the records it has seen in operator list state (round-robin redistributed). */
    static final class Remember extends ProcessFunction<Long, Long> {
        static final StateDescriptor<Long> SEEN = StateDescriptor.list("seen", Long.class);
        static final StateDescriptor<Long> ALL = StateDescriptor.list("all", Long.class);
        private ListState<Long> seen;
        private ListState<Long> all;

        @Override
        public void open(OperatorRuntimeContext context) {
            seen = context.operatorListState(SEEN);
            all = context.unionListState(ALL);
        }

        @Override
        public void processElement(Long value, Collector<Long> out) {
            seen.add(value);
            all.add(value);
            out.collect((long) seen.get().size() * 1_000_000 + all.get().size());
        }
    }
}
