package dev.flowscale.engine.examples;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.LongValueState;
import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.engine.source.RateProfile;

/** Word count: sentences → flatMap split → keyBy word → count → sink. */
public final class WordCount {
    public static final String SOURCE = "sentences";
    public static final String SPLIT = "split";
    public static final String COUNT = "count";
    public static final String SINK = "sink";

    private WordCount() {}

    /** Sentences of words for word count, at the profile's rate (null: unthrottled). */
    public static SourceFunction<String> sentences(
            RateProfile profile, SentenceGenerator generator) {
        return new GeneratorSource<>(profile, generator::sentence, Long.MAX_VALUE);
    }

    /** A word and how often it has been seen so far. */
    public record WordAndCount(String word, long count) {}

    public static JobBuilder build(
            String jobName,
            SourceFunction<String> sentences,
            SinkFunction<? super WordAndCount> sink) {
        JobBuilder job = JobBuilder.named(jobName);
        DataStream<String> words = job.source(SOURCE, sentences).flatMap(SPLIT, WordCount::split);
        words.keyBy(word -> word).process(COUNT, CountWords::new).sink(SINK, sink);
        return job;
    }

    /** Splits on single spaces without regex or intermediate arrays. */
    public static void split(String sentence, Collector<String> out) {
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

    /** Counts each word in keyed value state and emits the new count. */
    public static final class CountWords
            extends KeyedProcessFunction<String, String, WordAndCount> {
        private LongValueState count;

        @Override
        public void open(KeyedRuntimeContext context) {
            count = context.longValueState(StateDescriptor.value("count", Long.class));
        }

        @Override
        public void processElement(
                String word, Context<String> context, Collector<WordAndCount> out) {
            out.collect(new WordAndCount(word, count.add(1)));
        }
    }
}
