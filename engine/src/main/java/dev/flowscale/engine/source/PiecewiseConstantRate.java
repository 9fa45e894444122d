package dev.flowscale.engine.source;

import dev.flowscale.engine.api.EngineException;
import java.util.Arrays;
import java.util.List;

/**
 * A rate that is constant between change points: the schedule behind {@code steps} and {@code
 * trace}. The records due at each change point are summed once up front, so {@link #dueBy} is a
 * binary search plus one multiplication.
 */
final class PiecewiseConstantRate implements RateProfile {

    private final double[] times;
    private final double[] rates;

    /** Records due at {@code times[i]}, before its rate applies. */
    private final double[] dueAt;

    private final String description;

    /** Arrays must be checked: non-empty, equal length, times strictly increasing. */
    PiecewiseConstantRate(double[] times, double[] rates, String description) {
        this.times = times;
        this.rates = rates;
        this.description = description;
        this.dueAt = new double[times.length];
        for (int i = 1; i < times.length; i++) {
            // Same expression as dueBy uses, so dueBy is continuous at every change point.
            dueAt[i] = dueAt[i - 1] + rates[i - 1] * (times[i] - times[i - 1]);
        }
    }

    static PiecewiseConstantRate ofSteps(List<RateProfile.Step> steps) {
        if (steps == null || steps.isEmpty()) {
            throw new EngineException("steps must hold at least one step; e.g. steps:0s=1000");
        }
        double[] times = new double[steps.size()];
        double[] rates = new double[steps.size()];
        StringBuilder description = new StringBuilder("steps");
        for (int i = 0; i < times.length; i++) {
            times[i] = steps.get(i).atSeconds();
            rates[i] = steps.get(i).perSecond();
            if (i > 0 && times[i] <= times[i - 1]) {
                throw new EngineException(
                        "step times must be strictly increasing but step "
                                + (i + 1)
                                + " at "
                                + RateMath.format(times[i])
                                + "s follows "
                                + RateMath.format(times[i - 1])
                                + "s; list the steps in time order without repeats");
            }
            description
                    .append(i == 0 ? " " : ", ")
                    .append(RateMath.format(times[i]))
                    .append("s=")
                    .append(RateMath.format(rates[i]))
                    .append("/s");
        }
        return new PiecewiseConstantRate(times, rates, description.toString());
    }

    @Override
    public double rateAt(double tSeconds) {
        RateMath.checkQueryTime(tSeconds);
        int i = segmentAt(tSeconds);
        return i < 0 ? 0 : rates[i];
    }

    @Override
    public long dueBy(double tSeconds) {
        RateMath.checkQueryTime(tSeconds);
        int i = segmentAt(tSeconds);
        if (i < 0) {
            return 0;
        }
        return RateMath.floorRecords(dueAt[i] + rates[i] * (tSeconds - times[i]));
    }

    /** Index of the last change point at or before t; -1 before the first. */
    private int segmentAt(double tSeconds) {
        int found = Arrays.binarySearch(times, tSeconds);
        return found >= 0 ? found : -found - 2;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public String toString() {
        return description;
    }
}
