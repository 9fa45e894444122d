package dev.flowscale.engine.source;

import dev.flowscale.engine.api.EngineException;

/**
 * {@code max(0, base + amplitude * sin(2πt / period))}; see {@link RateProfile#sine}.
 *
 * <p>The integral is exact in closed form in both regimes. With phase {@code θ = 2πt/period}, the
 * rate is positive on {@code [0, π - θ0)} and {@code (2π + θ0, 2π)} of each period, where {@code θ0
 * = asin(max(-1, -base/amplitude))}; on those arcs its antiderivative is {@code G(θ) = base·θ -
 * amplitude·cos θ}. When {@code base >= amplitude}, θ0 = -π/2 and the arcs cover the whole period,
 * giving {@code base·t + amplitude·period/2π·(1 - cos θ)}. Whole periods contribute a precomputed
 * per-period total, so the cost is constant in t.
 */
final class SineRate implements RateProfile {

    private static final double TWO_PI = 2 * Math.PI;

    private final double base;
    private final double amplitude;
    private final double periodSeconds;

    /** End of the first positive arc and start of the second, as phases in [0, 2π]. */
    private final double firstArcEnd;

    private final double secondArcStart;
    private final double recordsPerPeriod;

    SineRate(double base, double amplitude, double periodSeconds) {
        RateMath.checkRate("sine base", base);
        RateMath.checkRate("sine amplitude", amplitude);
        if (!Double.isFinite(periodSeconds) || periodSeconds <= 0) {
            throw new EngineException(
                    "sine period must be a finite duration > 0 but was "
                            + periodSeconds
                            + "s; e.g. period=60s");
        }
        this.base = base;
        this.amplitude = amplitude;
        this.periodSeconds = periodSeconds;
        double theta0 = amplitude == 0 ? -Math.PI / 2 : Math.asin(Math.max(-1, -base / amplitude));
        this.firstArcEnd = Math.PI - theta0;
        this.secondArcStart = TWO_PI + theta0;
        this.recordsPerPeriod = recordsWithinPeriod(TWO_PI);
    }

    @Override
    public double rateAt(double tSeconds) {
        RateMath.checkQueryTime(tSeconds);
        if (tSeconds < 0) {
            return 0;
        }
        return Math.max(0, base + amplitude * Math.sin(TWO_PI * tSeconds / periodSeconds));
    }

    @Override
    public long dueBy(double tSeconds) {
        RateMath.checkQueryTime(tSeconds);
        if (tSeconds <= 0) {
            return 0;
        }
        double periods = Math.floor(tSeconds / periodSeconds);
        double phase = TWO_PI * (tSeconds - periods * periodSeconds) / periodSeconds;
        // Rounding can put the phase a hair outside [0, 2π]; clamping keeps the total monotone.
        phase = Math.min(TWO_PI, Math.max(0, phase));
        return RateMath.floorRecords(periods * recordsPerPeriod + recordsWithinPeriod(phase));
    }

    /** Records due from the start of a period to {@code phase} (0..2π) within it. */
    private double recordsWithinPeriod(double phase) {
        double inPhaseUnits = antiderivative(Math.min(phase, firstArcEnd)) - antiderivative(0);
        if (phase > secondArcStart) {
            inPhaseUnits += antiderivative(phase) - antiderivative(secondArcStart);
        }
        return inPhaseUnits * periodSeconds / TWO_PI;
    }

    private double antiderivative(double phase) {
        return base * phase - amplitude * Math.cos(phase);
    }

    @Override
    public String describe() {
        return "sine base="
                + RateMath.format(base)
                + "/s amplitude="
                + RateMath.format(amplitude)
                + "/s period="
                + RateMath.format(periodSeconds)
                + "s";
    }

    @Override
    public String toString() {
        return describe();
    }
}
