package dev.flowscale.flink.demo;

import dev.flowscale.flink.job.ParallelismOverrides;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A real Flink word count with keyed state and blocking per-record costs: scheduled sentences
 * (parallelism 1) → rebalance → Split (a blocking cost per sentence) → keyBy word → Count (keyed
 * {@code ValueState}, a blocking cost per word) → a sink that keeps, per word, the highest count it
 * saw. Checkpointed, so a restart or rescale restores the counts exactly once; the sink may see a
 * count twice after a restore, never a count above the number of occurrences. The costs block
 * (park) rather than spin, so several instances on this 2-core machine are truly parallel.
 *
 * <p>Its {@link #main} is the entry point of the jar the savepoint path resubmits through Flink's
 * REST API: {@code <tag> <epochMillis> <rate> <count> <splitMicros> <countMicros> <maxParallelism>
 * [ignore-overrides]}. It runs through {@link ParallelismOverrides}, which applies the
 * resubmission's per-vertex parallelism overrides on Flink 2.3 (which ignores them on jar runs).
 */
public final class FlinkWordCount {
    /**
     * A last program argument that runs the job with {@code env.execute}, as a job that does not
     * apply {@code pipeline.jobvertex-parallelism-overrides} itself (Flink 2.3 then ignores them).
     */
    public static final String IGNORE_OVERRIDES = "ignore-overrides";

    /** Highest count seen per word, per run tag (the MiniCluster runs in the test's JVM). */
    private static final Map<String, Map<String, Long>> COUNTS = new ConcurrentHashMap<>();

    private FlinkWordCount() {}

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        define(env, Settings.parse(args));
        if (args.length > 7 && args[7].equals(IGNORE_OVERRIDES)) {
            env.execute(jobName(args[0]));
        } else {
            ParallelismOverrides.execute(env, jobName(args[0]));
        }
    }

    /** The job's name in Flink for the run tagged {@code tag}. */
    public static String jobName(String tag) {
        return "word-count-" + tag;
    }

    /** Adds the job to {@code env}. */
    public static void define(StreamExecutionEnvironment env, Settings s) {
        env.enableCheckpointing(Duration.ofMillis(300).toMillis());
        env.setMaxParallelism(s.maxParallelism());
        env.setParallelism(1);
        ScheduledSentences schedule = new ScheduledSentences(s.epochMillis(), s.rate(), s.count());
        env.fromSource(
                        new DataGeneratorSource<>(schedule, s.count(), schedule, Types.STRING),
                        WatermarkStrategy.noWatermarks(),
                        "Sentences")
                .uid("sentences")
                .rebalance()
                .flatMap(new Split(s.splitMicros()))
                .returns(Types.STRING)
                .name("Split")
                .uid("split")
                .keyBy(word -> word, Types.STRING)
                .process(new CountWords(s.countMicros()))
                .returns(Types.TUPLE(Types.STRING, Types.LONG))
                .name("Count")
                .uid("count")
                .sinkTo(new MaxCountSink(s.tag()))
                .name("Counts")
                .uid("counts");
    }

    /** The highest count the sink saw per word in the run tagged {@code tag}. */
    public static Map<String, Long> counts(String tag) {
        return Map.copyOf(COUNTS.getOrDefault(tag, Map.of()));
    }

    /** The job's arguments. */
    public record Settings(
            String tag,
            long epochMillis,
            double rate,
            long count,
            long splitMicros,
            long countMicros,
            int maxParallelism) {

        static Settings parse(String[] a) {
            return new Settings(
                    a[0],
                    Long.parseLong(a[1]),
                    Double.parseDouble(a[2]),
                    Long.parseLong(a[3]),
                    Long.parseLong(a[4]),
                    Long.parseLong(a[5]),
                    Integer.parseInt(a[6]));
        }

        /** The program arguments that {@link #main} parses back into these settings. */
        public java.util.List<String> args() {
            return java.util.List.of(
                    tag,
                    Long.toString(epochMillis),
                    Double.toString(rate),
                    Long.toString(count),
                    Long.toString(splitMicros),
                    Long.toString(countMicros),
                    Integer.toString(maxParallelism));
        }
    }

    /** Blocks the calling thread for {@code micros} without spinning. */
    static void block(long micros) {
        long deadline = System.nanoTime() + micros * 1000;
        for (long left = micros * 1000; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    static final class Split implements FlatMapFunction<String, String> {
        private final long micros;

        Split(long micros) {
            this.micros = micros;
        }

        @Override
        public void flatMap(String sentence, Collector<String> out) {
            block(micros);
            for (String word : sentence.split(" ")) {
                out.collect(word);
            }
        }
    }

    static final class CountWords
            extends KeyedProcessFunction<String, String, Tuple2<String, Long>> {
        private final long micros;
        private transient ValueState<Long> count;

        CountWords(long micros) {
            this.micros = micros;
        }

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Long.class));
        }

        @Override
        public void processElement(
                String word, Context context, Collector<Tuple2<String, Long>> out)
                throws Exception {
            block(micros);
            Long current = count.value();
            long next = current == null ? 1 : current + 1;
            count.update(next);
            out.collect(Tuple2.of(word, next));
        }
    }

    static final class MaxCountSink implements Sink<Tuple2<String, Long>> {
        private final String tag;

        MaxCountSink(String tag) {
            this.tag = tag;
        }

        @Override
        public SinkWriter<Tuple2<String, Long>> createWriter(WriterInitContext context) {
            Map<String, Long> counts = COUNTS.computeIfAbsent(tag, t -> new ConcurrentHashMap<>());
            return new SinkWriter<>() {
                @Override
                public void write(Tuple2<String, Long> wordCount, Context ctx) {
                    counts.merge(wordCount.f0, wordCount.f1, Math::max);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
