package dev.flowscale.engine.job;

import dev.flowscale.engine.api.SinkFunction;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** Built-in sinks. */
public final class Sinks {
    private Sinks() {}

    /** Keeps every record in memory; for tests and small jobs. */
    public static <T> CollectingSink<T> collecting() {
        return new CollectingSink<>();
    }

    /** Counts records and drops them. */
    public static <T> CountingSink<T> counting() {
        return new CountingSink<>();
    }

    /** Prints every record on its own line with a prefix. */
    public static <T> SinkFunction<T> printing(String prefix, PrintStream out) {
        return value -> out.println(prefix + value);
    }

    public static <T> SinkFunction<T> printing() {
        return printing("", System.out);
    }

    /** Collects records into a synchronized list. */
    public static final class CollectingSink<T> implements SinkFunction<T> {
        private final List<T> records = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void invoke(T value) {
            records.add(value);
        }

        /** A copy of the records collected so far. */
        public List<T> records() {
            synchronized (records) {
                return new ArrayList<>(records);
            }
        }
    }

    /** Counts records. */
    public static final class CountingSink<T> implements SinkFunction<T> {
        private final LongAdder count = new LongAdder();

        @Override
        public void invoke(T value) {
            count.increment();
        }

        public long count() {
            return count.sum();
        }
    }
}
