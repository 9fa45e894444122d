package dev.flowscale.engine.source;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import java.util.function.LongFunction;

/**
 * A data generator that follows a rate profile. Records are numbered 0, 1, 2, ... and made by
 * a function of their sequence number, so any range can be regenerated (replayed) exactly.
 * Instance i of p emits the sequence numbers i, i + p, i + 2p, ... When backpressure slows it
 * down it falls behind its schedule and reports the difference as its backlog.
 */
public final class GeneratorSource<T> implements SourceFunction<T> {
    private final RateProfile profile;
    private final LongFunction<T> recordOf;
    private final long limit;

    /**
     * @param profile  the schedule, or null to emit as fast as downstream allows
     * @param recordOf makes the record with a given sequence number
     * @param limit    total records over all instances; Long.MAX_VALUE for an endless stream
     */
    public GeneratorSource(RateProfile profile, LongFunction<T> recordOf, long limit) {
        if (recordOf == null) {
            throw new InvalidJobException("generator source: recordOf is null; pass a function of the sequence number");
        }
        if (limit < 0) {
            throw new InvalidJobException("generator source: limit " + limit + " is negative; use >= 0");
        }
        this.profile = profile;
        this.recordOf = recordOf;
        this.limit = limit;
    }

    @Override
    public SourceReader<T> createReader(RuntimeContext context) {
        return new Reader(context.instanceIndex(), context.parallelism(), System.nanoTime());
    }

    /** One instance's position in the sequence. */
    private final class Reader implements SourceReader<T> {
        private final int index;
        private final int parallelism;
        private final long startNanos;
        private long emitted;

        Reader(int index, int parallelism, long startNanos) {
            this.index = index;
            this.parallelism = parallelism;
            this.startNanos = startNanos;
        }

        @Override
        public int poll(Collector<T> out, int max) {
            long due = dueNow();
            long next = index + emitted * (long) parallelism;
            if (next >= limit) {
                return END_OF_INPUT;
            }
            int n = (int) Math.min(max, due - emitted);
            for (int i = 0; i < n; i++) {
                out.collect(recordOf.apply(next));
                next += parallelism;
            }
            emitted += Math.max(n, 0);
            return Math.max(n, 0);
        }

        /** Records of this instance due by now (capped by the limit). */
        private long dueNow() {
            long total = profile == null ? limit : Math.min(limit, profile.dueBy(secondsSinceStart()));
            return total > index ? (total - index - 1) / parallelism + 1 : 0;
        }

        private double secondsSinceStart() {
            return (System.nanoTime() - startNanos) / 1e9;
        }

        @Override
        public long nanosUntilNext() {
            double rate = profile == null ? 0 : profile.rateAt(secondsSinceStart()) / parallelism;
            return rate > 0 ? (long) Math.min(1e6, 1e9 / rate) : 1_000_000L;
        }

        @Override
        public long backlog() {
            return profile == null ? 0 : Math.max(0, dueNow() - emitted);
        }
    }
}
