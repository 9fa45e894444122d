package dev.flowscale.policy.model;

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

    private record Fitted(SortedMap<Integer, Double> points, ScalabilityModel model) {}

    private final Map<String, Fitted> latest = new ConcurrentHashMap<>();
    private final AtomicLong fits = new AtomicLong();

    /** The curve fitted to these points, reused while the operator's points stay the same. */
    public ScalabilityModel fit(String operatorId, SortedMap<Integer, Double> points) {
        Fitted last = latest.get(operatorId);
        if (last != null && last.points().equals(points)) {
            return last.model();
        }
        ScalabilityModel model = ScalabilityFit.fitMedians(points);
        fits.incrementAndGet();
        latest.put(operatorId, new Fitted(new TreeMap<>(points), model));
        return model;
    }

    /** How many fits were computed rather than reused. */
    public long fits() {
        return fits.get();
    }
}
