package dev.flowscale.policy.model;

import java.util.Arrays;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The latest fitted curve per operator and the points it was fitted to: a fit ({@link
 * ScalabilityFit#fitMedians}, with the Universal Scalability Law's iterative fit from three
 * parallelisms on) depends only on its points, and an operator's median points change only when a
 * median does, so most decisions reuse the previous decision's curve. One entry per operator;
 * thread-safe, so one policy may decide for several jobs at once.
 */
public final class FittedCurves {

    /** The points a curve was fitted to, ascending by parallelism, and the curve. */
    private record Fitted(int[] parallelisms, double[] medians, ScalabilityModel model) {

        boolean fittedTo(int[] at, double[] values, int n) {
            return Arrays.equals(parallelisms, 0, parallelisms.length, at, 0, n)
                    && Arrays.equals(medians, 0, medians.length, values, 0, n);
        }
    }

    private final Map<String, Fitted> latest = new ConcurrentHashMap<>();
    private final AtomicLong fits = new AtomicLong();

    /**
     * The curve fitted to the first {@code n} points ({@code at} ascending, the median capacity at
     * each in {@code values}), reused while the operator's points stay the same: compared in place,
     * so a reuse allocates nothing.
     */
    public ScalabilityModel fit(String operatorId, int[] at, double[] values, int n) {
        Fitted last = latest.get(operatorId);
        if (last != null && last.fittedTo(at, values, n)) {
            return last.model();
        }
        SortedMap<Integer, Double> points = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            points.put(at[i], values[i]);
        }
        ScalabilityModel model = ScalabilityFit.fitMedians(points);
        fits.incrementAndGet();
        latest.put(operatorId, new Fitted(Arrays.copyOf(at, n), Arrays.copyOf(values, n), model));
        return model;
    }

    /** How many fits were computed rather than reused. */
    public long fits() {
        return fits.get();
    }
}
