package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.ObjDoubleConsumer;

/**
 * A compact long memory of every source's offered rate: the mean of each bucket (one minute in the
 * loop) over the last days, as one array of doubles per source, far longer than the decisions a
 * loop keeps. Predictive mode fits a daily pattern to it, which needs three days of samples.
 * Immutable; a bucket without samples is NaN and skipped when read.
 */
public final class SourceRateLog {

    /** A log of nothing: a history built without one (an operator's restored history, a test). */
    public static final SourceRateLog EMPTY = new SourceRateLog(Duration.ofMinutes(1), Map.of());

    /**
     * One source's buckets.
     *
     * @param first the start of the oldest bucket
     * @param means mean rate per bucket, oldest first (NaN: no sample in it); never modified
     */
    public record Series(Instant first, double[] means) {}

    private final Duration bucket;
    private final Map<String, Series> sources;

    public SourceRateLog(Duration bucket, Map<String, Series> sources) {
        this.bucket = Checks.notNull(bucket, "source rate log bucket");
        if (bucket.isZero() || bucket.isNegative()) {
            throw new PolicyException(
                    "source rate log bucket is "
                            + bucket
                            + "; use a positive duration such as 1 minute");
        }
        this.sources = Map.copyOf(Checks.notNull(sources, "source rate log series"));
    }

    public Duration bucket() {
        return bucket;
    }

    /**
     * Calls {@code sink} with the start and mean of each of the source's buckets that ends by
     * {@code end}, oldest first.
     */
    public void forEachBefore(String sourceId, Instant end, ObjDoubleConsumer<Instant> sink) {
        Series s = sources.get(sourceId);
        if (s == null) {
            return;
        }
        for (int i = 0; i < s.means().length; i++) {
            Instant start = s.first().plus(bucket.multipliedBy(i));
            if (start.plus(bucket).isAfter(end)) {
                return;
            }
            if (!Double.isNaN(s.means()[i])) {
                sink.accept(start, s.means()[i]);
            }
        }
    }

    /** Calls {@code sink} with each source's id and series. */
    public void forEachSeries(BiConsumer<String, Series> sink) {
        sources.forEach(sink);
    }

    /** Buckets held for the source (with or without samples). */
    public int size(String sourceId) {
        Series s = sources.get(sourceId);
        return s == null ? 0 : s.means().length;
    }
}
