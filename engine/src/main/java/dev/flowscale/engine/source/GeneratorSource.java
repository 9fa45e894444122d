package dev.flowscale.engine.source;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.api.SplitCollector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongFunction;

/**
 * A replayable data generator that follows a rate profile. Records are numbered 0, 1, 2, ... and
 * made by a function of their sequence number, so any range can be regenerated exactly. Instance i
 * of p starts with the split {i, i + p, i + 2p, ...}; on restore at another parallelism the splits
 * are halved until there are enough and dealt by load, so no number is skipped or emitted twice.
 * When backpressure slows the source it falls behind its schedule and reports the difference as its
 * backlog. Each split is its own split for event time ({@link SplitCollector}).
 */
public final class GeneratorSource<T> implements SourceFunction<T> {
    private final RateProfile profile;
    private final LongFunction<T> recordOf;
    private final long limit;
    private final boolean idleAtLimit;

    /**
     * @param profile the schedule, or null to emit as fast as downstream allows
     * @param recordOf makes the record with a given sequence number
     * @param limit total records over all instances; Long.MAX_VALUE for an endless stream
     * @param idleAtLimit stay running (idle) after the limit instead of ending, so that the job can
     *     still be checkpointed, rescaled or stopped with a savepoint
     */
    public GeneratorSource(
            RateProfile profile, LongFunction<T> recordOf, long limit, boolean idleAtLimit) {
        if (recordOf == null) {
            throw new InvalidJobException(
                    "generator source: recordOf is null; pass a function of the sequence number");
        }
        if (limit < 0) {
            throw new InvalidJobException(
                    "generator source: limit " + limit + " is negative; use >= 0");
        }
        this.profile = profile;
        this.recordOf = recordOf;
        this.limit = limit;
        this.idleAtLimit = idleAtLimit;
    }

    public GeneratorSource(RateProfile profile, LongFunction<T> recordOf, long limit) {
        this(profile, recordOf, limit, false);
    }

    @Override
    public SourceReader<T> createReader(RuntimeContext context) {
        long start = System.currentTimeMillis();
        int p = context.parallelism();
        return new Reader(List.of(new GeneratorSplit(context.instanceIndex(), p, start)), start);
    }

    @Override
    public SourceReader<T> restoreReader(RuntimeContext context, List<Object> splits) {
        List<GeneratorSplit> mine = splits.stream().map(GeneratorSplit.class::cast).toList();
        long start =
                mine.isEmpty()
                        ? System.currentTimeMillis()
                        : mine.get(0).scheduleStartEpochMillis();
        return new Reader(mine, start);
    }

    @Override
    public Class<?> splitType() {
        return GeneratorSplit.class;
    }

    /** Halves the densest splits until there are at least 4 per reader, then deals them by load. */
    @Override
    public List<List<Object>> assignSplits(List<Object> splits, int parallelism) {
        List<GeneratorSplit> all =
                new ArrayList<>(splits.stream().map(GeneratorSplit.class::cast).toList());
        while (!all.isEmpty() && all.size() < 4 * parallelism) {
            GeneratorSplit densest =
                    all.stream().min(Comparator.comparingLong(GeneratorSplit::step)).orElseThrow();
            all.remove(densest);
            all.addAll(List.of(densest.halves()));
        }
        all.sort(
                Comparator.comparingLong(GeneratorSplit::step)
                        .thenComparingLong(GeneratorSplit::next));
        List<List<Object>> assigned = new ArrayList<>();
        double[] load = new double[parallelism];
        for (int i = 0; i < parallelism; i++) {
            assigned.add(new ArrayList<>());
        }
        for (GeneratorSplit split : all) {
            int target = 0;
            for (int i = 1; i < parallelism; i++) {
                target = load[i] < load[target] ? i : target;
            }
            assigned.get(target).add(split);
            load[target] += 1.0 / split.step();
        }
        return assigned;
    }

    /** One instance's splits; emits round robin over them. */
    private final class Reader implements SourceReader<T> {
        /**
         * Next sequence number per split; published after each poll's records of the split (not per
         * record, which would cost a release store on the hot path), so another thread reads the
         * backlog at most one poll's records behind.
         */
        private final AtomicLongArray next;

        private final long[] step;
        private final long startMillis;
        private final double share;
        private int cursor;

        Reader(List<GeneratorSplit> splits, long startMillis) {
            this.next =
                    new AtomicLongArray(splits.stream().mapToLong(GeneratorSplit::next).toArray());
            this.step = splits.stream().mapToLong(GeneratorSplit::step).toArray();
            this.startMillis = startMillis;
            this.share = splits.stream().mapToDouble(s -> 1.0 / s.step()).sum();
        }

        @Override
        public int poll(Collector<T> out, int max) {
            long due = dueNow();
            int emitted = 0;
            boolean open = false;
            int splits = next.length();
            cursor = splits == 0 ? 0 : (cursor + 1) % splits;
            for (int k = 0; k < splits; k++) {
                int s = (cursor + k) % splits;
                long position = next.get(s);
                open |= position < limit;
                if (position >= limit) {
                    SplitCollector.finish(out, s);
                    continue;
                }
                SplitCollector.select(out, s);
                long n =
                        Math.min(
                                max - emitted,
                                new GeneratorSplit(position, step[s], 0).dueCount(due));
                try {
                    for (long i = 0; i < n; i++) {
                        out.collect(recordOf.apply(position));
                        position += step[s];
                    }
                } finally {
                    // A failed or cancelled emit must not replay the records already emitted.
                    next.lazySet(s, position);
                }
                emitted += (int) n;
            }
            return emitted == 0 && !open && !idleAtLimit ? END_OF_INPUT : emitted;
        }

        /** The schedule's total due by now over all instances, capped by the limit. */
        private long dueNow() {
            return profile == null ? limit : Math.min(limit, profile.dueBy(secondsSinceStart()));
        }

        private double secondsSinceStart() {
            return Math.max(0, System.currentTimeMillis() - startMillis) / 1000.0;
        }

        @Override
        public long nanosUntilNext() {
            double rate = profile == null ? 0 : profile.rateAt(secondsSinceStart()) * share;
            return rate > 0 ? (long) Math.min(1e6, 1e9 / rate) : 1_000_000L;
        }

        @Override
        public Long backlog() {
            if (profile == null) {
                return 0L;
            }
            long due = dueNow();
            long backlog = 0;
            for (int s = 0; s < next.length(); s++) {
                backlog += new GeneratorSplit(next.get(s), step[s], 0).dueCount(due);
            }
            return backlog;
        }

        @Override
        public List<?> snapshotSplits() {
            List<GeneratorSplit> splits = new ArrayList<>();
            for (int s = 0; s < next.length(); s++) {
                splits.add(new GeneratorSplit(next.get(s), step[s], startMillis));
            }
            return splits;
        }
    }
}
