package dev.flowscale.runner.api;

import java.util.OptionalDouble;

/**
 * The one DS2 rate rule, shared by the engine's meters and by the collector that feeds the policy
 * (DESIGN.md, "Definitions"): a rate is a count over a time, and <b>a window in which no time
 * passed has no rate</b> — not zero, which would claim the instance can process nothing, and not
 * infinity. True rates divide by useful time, so an instance that did no useful work in a window
 * (it only waited for input or on output) has no true rate in it.
 *
 * <p>Where the answer goes, "no rate" is shown so (docs/metrics.md):
 *
 * <ul>
 *   <li>in a Prometheus gauge and in Grafana: NaN, drawn as a gap ({@link #gauge});
 *   <li>in an operator's sum: it adds nothing; the operator has a rate when any instance has one
 *       ({@link #plus});
 *   <li>to the policy: 0 records per second of measured capacity ({@link #measured}); the policy's
 *       consistency check tells it from a broken reading (records but no useful time).
 * </ul>
 */
public final class Rate {
    private Rate() {}

    /** {@code count / seconds}, or empty when no time passed (or the time is not a number). */
    public static OptionalDouble perSecond(double count, double seconds) {
        return seconds > 0 && Double.isFinite(seconds)
                ? OptionalDouble.of(count / seconds)
                : OptionalDouble.empty();
    }

    /**
     * The sum of two rates of one operator's instances: a missing one adds nothing; empty when both
     * are.
     */
    public static OptionalDouble plus(OptionalDouble a, OptionalDouble b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : OptionalDouble.of(a.getAsDouble() + b.getAsDouble());
    }

    /** A rate held as a gauge value (NaN for no rate) as a rate again. */
    public static OptionalDouble ofGauge(double value) {
        return Double.isNaN(value) ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /**
     * As a gauge value: NaN for no rate, so Prometheus and Grafana show no value rather than a
     * false 0.
     */
    public static double gauge(OptionalDouble rate) {
        return rate.orElse(Double.NaN);
    }

    /** As the policy's measured rate: no rate measured is no capacity measured, 0. */
    public static double measured(OptionalDouble rate) {
        return rate.orElse(0);
    }
}
