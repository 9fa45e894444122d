package dev.flowscale.bench;

/**
 * Times the steady part of one run at the sink: it counts the records that reach the sink,
 * stamps the clock when the warm-up share of the expected records has arrived and again when
 * the last one has. Startup, JIT warm-up and the first records are thus left out for every
 * contender alike.
 *
 * <p>One meter per benchmark JVM; each workload runs its sink at parallelism 1, so only one
 * thread counts. The stamps are read after the job has ended (its threads joined).
 */
final class SinkMeter {
    private static volatile SinkMeter current;

    private final long expected;
    private final long warmupRecords;
    private long count;
    private long warmNanos;
    private long endNanos;

    private SinkMeter(long expected, double warmupFraction) {
        this.expected = expected;
        this.warmupRecords = (long) (expected * warmupFraction);
    }

    /** Installs a fresh meter for a run whose sink will receive {@code expected} records. */
    static SinkMeter arm(long expected, double warmupFraction) {
        current = new SinkMeter(expected, warmupFraction);
        return current;
    }

    /** Called by the sink for each record. */
    static void record() {
        current.increment();
    }

    private void increment() {
        long n = ++count;
        if (n == warmupRecords) {
            warmNanos = System.nanoTime();
        } else if (n == expected) {
            endNanos = System.nanoTime();
        }
    }

    long count() {
        return count;
    }

    long expected() {
        return expected;
    }

    /** Sink records counted between the two stamps. */
    long measuredRecords() {
        return expected - warmupRecords;
    }

    double measuredSeconds() {
        return (endNanos - warmNanos) / 1e9;
    }

    boolean complete() {
        return count == expected && warmNanos > 0 && endNanos > warmNanos;
    }
}
