package dev.flowscale.engine.window;

import dev.flowscale.engine.api.AggregateFunction;
import java.util.function.ToLongFunction;

/** Ready-made window aggregates. */
public final class Aggregates {
    private Aggregates() {}

    /** The sum of {@code value} over a window's records (accumulator type {@code Long}). */
    public static <T> AggregateFunction<T, Long, Long> sumOf(ToLongFunction<? super T> value) {
        return new AggregateFunction<>() {
            @Override
            public Long createAccumulator() {
                return 0L;
            }

            @Override
            public Long add(T record, Long sum) {
                return sum + value.applyAsLong(record);
            }

            @Override
            public Long getResult(Long sum) {
                return sum;
            }

            @Override
            public Long merge(Long a, Long b) {
                return a + b;
            }
        };
    }
}
