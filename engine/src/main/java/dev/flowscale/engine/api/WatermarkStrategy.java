package dev.flowscale.engine.api;

import java.time.Duration;
import java.util.Objects;

/**
 * How a source gives its records event time and generates watermarks. The watermark trails the
 * largest timestamp seen by {@code maxOutOfOrderness} (Flink's bounded out-of-orderness): a
 * watermark {@code w} promises that no record with a timestamp {@code <= w} follows. A source
 * tracks one watermark per split and emits their minimum, so a fast split cannot make a slow
 * split's records late; a split (or a whole source) without records for {@code idleTimeout} stops
 * holding the watermark back until it emits again.
 *
 * @param assigner reads each record's timestamp
 * @param maxOutOfOrderness how far behind the largest timestamp seen a record may still arrive
 * @param idleTimeout silence after which a split counts as idle; null: never idle
 * @param interval how often the source emits its watermark when it advances
 */
public record WatermarkStrategy<T>(
        TimestampAssigner<T> assigner,
        Duration maxOutOfOrderness,
        Duration idleTimeout,
        Duration interval) {

    /** Emits watermarks at most this often by default (as Flink's auto-watermark interval). */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(200);

    public WatermarkStrategy {
        Objects.requireNonNull(assigner, "assigner");
        check(maxOutOfOrderness, "maxOutOfOrderness", true);
        if (idleTimeout != null) {
            check(idleTimeout, "idleTimeout", false);
        }
        check(interval, "interval", false);
    }

    private static void check(Duration value, String field, boolean zeroAllowed) {
        if (value == null || value.isNegative() || (!zeroAllowed && value.isZero())) {
            throw new InvalidJobException(
                    "watermark strategy: "
                            + field
                            + " is "
                            + value
                            + "; use a duration "
                            + (zeroAllowed ? ">= 0" : "> 0")
                            + " such as Duration.ofSeconds(5)");
        }
    }

    /** Timestamps that may arrive up to {@code maxOutOfOrderness} behind the largest one seen. */
    public static <T> WatermarkStrategy<T> forBoundedOutOfOrderness(
            Duration maxOutOfOrderness, TimestampAssigner<T> assigner) {
        return new WatermarkStrategy<>(assigner, maxOutOfOrderness, null, DEFAULT_INTERVAL);
    }

    /** Timestamps that never decrease within a split. */
    public static <T> WatermarkStrategy<T> forMonotonousTimestamps(TimestampAssigner<T> assigner) {
        return forBoundedOutOfOrderness(Duration.ZERO, assigner);
    }

    /** The same strategy, with splits silent for {@code timeout} counted as idle. */
    public WatermarkStrategy<T> withIdleness(Duration timeout) {
        return new WatermarkStrategy<>(assigner, maxOutOfOrderness, timeout, interval);
    }

    /** The same strategy, emitting watermarks at most every {@code every}. */
    public WatermarkStrategy<T> withInterval(Duration every) {
        return new WatermarkStrategy<>(assigner, maxOutOfOrderness, idleTimeout, every);
    }
}
