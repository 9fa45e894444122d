package dev.flowscale.policy.loop;

import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.SourceRateLog;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Records every window's offered source rates into one-minute buckets, keeping the last {@code
 * buckets} of them per source in a ring of doubles (four days: 5,760 doubles, 45 KiB per source).
 * The snapshot is rebuilt only when a bucket closes, once a minute. Not thread-safe.
 */
final class RateLog {

    static final Duration BUCKET = Duration.ofMinutes(1);

    /**
     * Four days: a daily period is fitted from three whole cycles, and the newest day is still
     * filling.
     */
    static final int DEFAULT_BUCKETS = 4 * 24 * 60;

    private final int buckets;
    private final Map<String, Ring> rings = new HashMap<>();
    private SourceRateLog snapshot = SourceRateLog.EMPTY;
    private boolean changed;
    private Instant lastEnd = Instant.MIN;

    RateLog(int buckets) {
        this.buckets = buckets;
    }

    /** Adds the offered rate of every source in the window, as of the window's end. */
    void record(MetricsWindow window) {
        if (!window.end().isAfter(lastEnd)) {
            return; // the same window handed over again adds nothing new
        }
        lastEnd = window.end();
        long bucket = Math.floorDiv(window.end().getEpochSecond(), BUCKET.toSeconds());
        for (OperatorMetrics m : window.operators().values()) {
            m.source()
                    .ifPresent(
                            s -> {
                                if (Double.isFinite(s.offeredRate())) {
                                    changed |=
                                            rings.computeIfAbsent(
                                                            m.operatorId(),
                                                            id -> new Ring(buckets, bucket))
                                                    .add(bucket, s.offeredRate());
                                }
                            });
        }
    }

    /**
     * Takes over a stored log's closed buckets (the newest {@code buckets} per source); the bucket
     * being filled when it was stored is not in it and starts empty.
     */
    void restore(SourceRateLog stored) {
        if (!stored.bucket().equals(BUCKET)) {
            return; // kept by another release with other buckets: start afresh
        }
        stored.forEachSeries(
                (id, series) -> {
                    double[] means = series.means();
                    int from = Math.max(0, means.length - buckets);
                    long first =
                            Math.floorDiv(series.first().getEpochSecond(), BUCKET.toSeconds())
                                    + from;
                    Ring ring = new Ring(buckets, first);
                    for (int i = from; i < means.length; i++) {
                        ring.close(means[i]);
                    }
                    rings.put(id, ring);
                });
        changed = true;
    }

    /** The closed buckets of every source. */
    SourceRateLog snapshot() {
        if (changed) {
            Map<String, SourceRateLog.Series> series = new HashMap<>();
            rings.forEach((id, ring) -> series.put(id, ring.closed()));
            snapshot = new SourceRateLog(BUCKET, series);
            changed = false;
        }
        return snapshot;
    }

    /** One source's last buckets: a ring of closed means and the sum of the bucket being filled. */
    private static final class Ring {
        private final double[] means;
        private long first; // bucket number of the oldest closed bucket kept
        private int count; // closed buckets kept
        private long open; // bucket number being filled
        private double sum;
        private int samples;

        Ring(int capacity, long bucket) {
            this.means = new double[capacity];
            this.first = bucket;
            this.open = bucket;
        }

        /**
         * Adds a sample; true when a bucket closed. Samples from an earlier bucket than the open
         * one are ignored.
         */
        boolean add(long bucket, double rate) {
            boolean closed = false;
            if (bucket - open
                    > means.length) { // a gap longer than the ring: nothing kept is recent
                first = bucket;
                open = bucket;
                count = 0;
                sum = 0;
                samples = 0;
                closed = true;
            }
            while (bucket > open) {
                close(samples > 0 ? sum / samples : Double.NaN);
                closed = true;
            }
            if (bucket == open) {
                sum += rate;
                samples++;
            }
            return closed;
        }

        private void close(double mean) {
            if (count == means.length) {
                first++;
                count--;
            }
            means[(int) Math.floorMod(first + count, (long) means.length)] = mean;
            count++;
            open++;
            sum = 0;
            samples = 0;
        }

        SourceRateLog.Series closed() {
            double[] ordered = new double[count];
            for (int i = 0; i < count; i++) {
                ordered[i] = means[(int) Math.floorMod(first + i, (long) means.length)];
            }
            return new SourceRateLog.Series(
                    Instant.ofEpochSecond(first * BUCKET.toSeconds()), ordered);
        }
    }
}
