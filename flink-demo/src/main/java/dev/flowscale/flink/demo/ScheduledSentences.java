package dev.flowscale.flink.demo;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * Sentence number i is due at {@code epochMillis + i / rate}: a source that owes records by its
 * schedule, as a Kafka topic does by its producers. It emits what is due (idle until then, so the
 * wait is not busy time), catches up after downtime or backpressure at full speed, and reports what
 * it owes as Flink's standard {@code pendingRecords} gauge, as Kafka sources report their lag. One
 * object is both the generator and the rate limiter strategy, so that after Flink deserializes the
 * source once per reader, the limiter knows the next sentence number. Runs at parallelism 1 (the
 * data generator's one split).
 */
public final class ScheduledSentences
        implements GeneratorFunction<Long, String>, RateLimiterStrategy<NumberSequenceSplit> {
    private static final long serialVersionUID = 1L;

    private final long epochMillis;
    private final double rate;
    private final long count;
    private transient volatile long next = -1;

    public ScheduledSentences(long epochMillis, double rate, long count) {
        this.epochMillis = epochMillis;
        this.rate = rate;
        this.count = count;
    }

    @Override
    public void open(SourceReaderContext context) {
        context.metricGroup().setPendingRecordsGauge(this::pending);
    }

    @Override
    public String map(Long index) {
        next = index + 1;
        return Sentences.sentence(index);
    }

    private long pending() {
        long due =
                Math.min(count, (long) ((System.currentTimeMillis() - epochMillis) * rate / 1000));
        return next < 0 ? 0 : Math.max(0, due - next);
    }

    private long dueMillis(long index) {
        return epochMillis + (long) Math.ceil(index * 1000 / rate);
    }

    @Override
    public RateLimiter<NumberSequenceSplit> createRateLimiter(int parallelism) {
        return new RateLimiter<>() {
            @Override
            public CompletionStage<Void> acquire(int permits) {
                return untilDue();
            }
        };
    }

    private CompletionStage<Void> untilDue() {
        long wait = next < 0 ? 0 : dueMillis(next) - System.currentTimeMillis();
        if (wait <= 0) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.runAsync(
                () -> {}, CompletableFuture.delayedExecutor(wait, TimeUnit.MILLISECONDS));
    }
}
