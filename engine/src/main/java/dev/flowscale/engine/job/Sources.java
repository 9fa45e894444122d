package dev.flowscale.engine.job;

import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.engine.source.RateProfile;
import java.util.List;
import java.util.function.LongFunction;

/** Built-in sources. */
public final class Sources {
    private Sources() {}

    /** Endless records made from their sequence number, at the rate the profile schedules. */
    public static <T> SourceFunction<T> generator(RateProfile profile, LongFunction<T> recordOf) {
        return new GeneratorSource<>(profile, recordOf, Long.MAX_VALUE);
    }

    /** {@code limit} records in all, as fast as downstream allows. */
    public static <T> SourceFunction<T> generator(long limit, LongFunction<T> recordOf) {
        return new GeneratorSource<>(null, recordOf, limit);
    }

    /** {@code limit} records in all, at the profile's rate. */
    public static <T> SourceFunction<T> generator(
            RateProfile profile, long limit, LongFunction<T> recordOf) {
        return new GeneratorSource<>(profile, recordOf, limit);
    }

    /**
     * {@code limit} records at the profile's rate (null: as fast as possible), after which the
     * source stays idle instead of ending, so the job can still be checkpointed, rescaled or
     * stopped with a savepoint.
     */
    public static <T> SourceFunction<T> replayable(
            RateProfile profile, long limit, LongFunction<T> recordOf) {
        return new GeneratorSource<>(profile, recordOf, limit, true);
    }

    /** The sequence numbers 0 .. count-1, as fast as downstream allows. */
    public static SourceFunction<Long> sequence(long count) {
        return generator(count, seq -> seq);
    }

    /** The elements of a list, spread over the source's instances by position. */
    public static <T> SourceFunction<T> fromList(List<T> elements) {
        List<T> copy = List.copyOf(elements);
        return generator(copy.size(), seq -> copy.get((int) seq));
    }
}
