package dev.flowscale.engine.testing;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.state.KeyGroups;
import java.util.stream.LongStream;

/**
 * A keyed job whose input has one hot key: records 0..n-1 from {@link #SOURCE}, keyed by {@link
 * #keyOf} (every other record has key 0, the rest spread over keys 1..199), through a pass-through
 * keyed operator {@link #KEYED} into a sink. {@link #sentPerKeyGroup} says in advance how many
 * records each key group receives, so tests can check per-key-group counts exactly.
 */
public final class HotKeyJob {
    public static final String SOURCE = "src";
    public static final String KEYED = "keyed";

    /** The hot key; its key group is {@code KeyGroups.keyGroupFor(HOT_KEY, keyGroups)}. */
    public static final long HOT_KEY = 0;

    private HotKeyJob() {}

    public static long keyOf(long seq) {
        return seq % 2 == 0 ? HOT_KEY : 1 + seq % 199;
    }

    /**
     * Adds the job to {@code job}: {@code keyGroups} key groups, the keyed operator at {@code
     * parallelism}.
     */
    public static JobBuilder build(
            JobBuilder job, SourceFunction<Long> source, int keyGroups, int parallelism) {
        job.keyGroups(keyGroups);
        job.source(SOURCE, source)
                .keyBy(HotKeyJob::keyOf)
                .process(KEYED, PassThrough::new)
                .parallelism(parallelism)
                .sink("sink", Sinks.counting());
        return job;
    }

    /** Records each key group receives when the source emits records 0..records-1. */
    public static long[] sentPerKeyGroup(long records, int keyGroups) {
        long[] sent = new long[keyGroups];
        LongStream.range(0, records)
                .forEach(seq -> sent[KeyGroups.keyGroupFor(keyOf(seq), keyGroups)]++);
        return sent;
    }

    static final class PassThrough extends KeyedProcessFunction<Long, Long, Long> {
        @Override
        public void processElement(Long value, Context<Long> context, Collector<Long> out) {
            out.collect(value);
        }
    }
}
