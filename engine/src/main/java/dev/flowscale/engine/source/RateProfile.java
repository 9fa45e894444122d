package dev.flowscale.engine.source;

import dev.flowscale.engine.api.EngineException;
import java.nio.file.Path;
import java.util.List;

/**
 * A source's schedule: how many records per second it should emit, as a function of the time since
 * it started. The source task asks {@link #dueBy} once per batch and emits the difference from what
 * it has already emitted; what is due but not emitted is its backlog.
 */
public interface RateProfile {

    /** Records per second at {@code tSeconds} after the source started; 0 before it started. */
    double rateAt(double tSeconds);

    /**
     * Records due in {@code [0, tSeconds]}: the integral of the rate, floored; non-decreasing in
     * {@code tSeconds} and 0 for {@code tSeconds <= 0}. Closed form, so cheap to call often.
     */
    long dueBy(double tSeconds);

    /** Human-readable, e.g. {@code "constant 1000/s"}. */
    String describe();

    /**
     * One step of a piecewise-constant schedule: from {@code atSeconds} on, emit {@code perSecond}
     * records per second (until the next step).
     */
    record Step(double atSeconds, double perSecond) {
        /** Checks that the time and rate are finite and non-negative. */
        public Step {
            RateMath.checkTime("step time", atSeconds);
            RateMath.checkRate("step rate", perSecond);
        }
    }

    /** A constant rate of {@code perSecond} records per second. */
    static RateProfile constant(double perSecond) {
        return new ConstantRate(perSecond);
    }

    /**
     * Piecewise constant: each step's rate holds until the next step; 0 before the first step
     * unless it starts at 0. Steps must be in strictly increasing time order.
     */
    static RateProfile steps(List<Step> steps) {
        return PiecewiseConstantRate.ofSteps(steps);
    }

    /**
     * {@code max(0, base + amplitude * sin(2πt / period))}. Its integral is computed in closed form
     * also when {@code amplitude > base} (the rate is clipped at 0 part of each period).
     */
    static RateProfile sine(double base, double amplitude, double periodSeconds) {
        return new SineRate(base, amplitude, periodSeconds);
    }

    /**
     * A recorded schedule: lines {@code time,rate} (seconds, records/s), {@code #} comments and
     * blank lines ignored, times strictly increasing. Piecewise constant between points; 0 before
     * the first point, and the last rate holds after the last point.
     *
     * @throws EngineException naming the file and line if the file cannot be read or is malformed
     */
    static RateProfile trace(Path file) {
        return RateTraceReader.read(file);
    }

    /**
     * Parses the command-line syntax: {@code 1000}, {@code constant:1000}, {@code
     * steps:0s=1000,30s=3000,60s=500}, {@code sine:base=1000,amplitude=500,period=60s}, {@code
     * trace:/path/file.csv}. Durations take the suffixes ms, s or m (bare: seconds).
     *
     * @throws EngineException naming what is wrong and the valid forms
     */
    static RateProfile parse(String spec) {
        return RateProfileParser.parse(spec);
    }
}
