package dev.flowscale.bench;

import dev.flowscale.engine.examples.SentenceGenerator;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The workloads on Flink in local mode (a MiniCluster in this JVM), parallelism 1. Word count keeps
 * Flink's default chaining (source+sentence+split in one task, count+sink in another), as flowscale
 * chains it. Map→filter chains all four operators into one task, as flowscale runs them on one
 * thread.
 */
final class FlinkJobs {
    static final String VERSION = "2.3.0";

    private FlinkJobs() {}

    static void run(Workload workload, long size) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        if (workload == Workload.WORDCOUNT) {
            wordCount(env, size);
        } else {
            mapFilter(env, size);
        }
        env.execute(workload.name().toLowerCase());
    }

    private static void wordCount(StreamExecutionEnvironment env, long sentences) {
        env.fromSequence(0, sentences - 1)
                .map(new ToSentence())
                .returns(Types.STRING)
                .flatMap(new Split())
                .returns(Types.STRING)
                .keyBy(word -> word, Types.STRING)
                .process(new CountWords())
                .returns(Types.TUPLE(Types.STRING, Types.LONG))
                .sinkTo(new MeteredSink<>());
    }

    private static void mapFilter(StreamExecutionEnvironment env, long records) {
        env.fromSequence(0, records - 1)
                .map(x -> x + 1)
                .returns(Types.LONG)
                .filter(x -> (x & 1) == 0)
                .sinkTo(new MeteredSink<>());
    }

    /** The same sentences as on flowscale, made from the sequence number. */
    static final class ToSentence extends RichMapFunction<Long, String> {
        private transient SentenceGenerator generator;

        @Override
        public void open(OpenContext context) {
            generator = Workload.sentences();
        }

        @Override
        public String map(Long seq) {
            return generator.sentence(seq);
        }
    }

    /** Splits on single spaces without regex, as flowscale's WordCount.split does. */
    static final class Split implements FlatMapFunction<String, String> {
        @Override
        public void flatMap(String sentence, Collector<String> out) {
            int start = 0;
            int length = sentence.length();
            while (start < length) {
                int end = sentence.indexOf(' ', start);
                if (end < 0) {
                    end = length;
                }
                if (end > start) {
                    out.collect(sentence.substring(start, end));
                }
                start = end + 1;
            }
        }
    }

    /** Counts each word in keyed ValueState and emits (word, count). */
    static final class CountWords
            extends KeyedProcessFunction<String, String, Tuple2<String, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Long.class));
        }

        @Override
        public void processElement(
                String word, Context context, Collector<Tuple2<String, Long>> out)
                throws Exception {
            Long current = count.value();
            long next = current == null ? 1 : current + 1;
            count.update(next);
            out.collect(Tuple2.of(word, next));
        }
    }

    /** Discards records after counting them on the run's {@link SinkMeter}. */
    static final class MeteredSink<T> implements Sink<T> {
        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(T element, Context ctx) {
                    SinkMeter.record();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
