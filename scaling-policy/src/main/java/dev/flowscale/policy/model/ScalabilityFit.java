package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Fits an operator's capacity curve to its observations. Observations are first reduced to one
 * point per distinct parallelism (their median, so every parallelism weighs the same and one noisy
 * window cannot bend the curve). With one parallelism the curve is DS2's linear one; with two or
 * more a power law λ·p^α is fitted by least squares on log c = log λ + α·log p (α clamped to
 * [{@value #MIN_ALPHA}, 1]); with three or more the Universal Scalability Law is fitted too ({@link
 * UslFit}) and chosen when its relative squared error is below {@value #USL_ADVANTAGE} of the power
 * law's, since it has one parameter more.
 */
public final class ScalabilityFit {

    /**
     * Lowest exponent: an operator that gained nothing from instances still has a positive curve.
     */
    static final double MIN_ALPHA = 0.01;

    static final double USL_ADVANTAGE = 0.8;

    private ScalabilityFit() {}

    /** The best-fitting model of the observations; at least one is needed. */
    public static ScalabilityModel fit(List<CapacityObservation> observations) {
        if (observations == null || observations.isEmpty()) {
            throw new PolicyException(
                    "cannot fit scalability without observations; record at least one metrics"
                            + " window in the ScalabilityHistory first");
        }
        return fitMedians(medians(observations));
    }

    /**
     * The best-fitting model of one point per parallelism (the median of its observations), keyed
     * in ascending order; at least one is needed.
     */
    public static ScalabilityModel fitMedians(SortedMap<Integer, Double> points) {
        if (points == null || points.isEmpty()) {
            throw new PolicyException(
                    "cannot fit scalability without a point; give the median capacity of at least"
                            + " one parallelism");
        }
        if (points.size() == 1) {
            Map.Entry<Integer, Double> only = points.entrySet().iterator().next();
            double perInstance = only.getValue() / only.getKey();
            return new ScalabilityModel(
                    ScalabilityModel.Kind.LINEAR,
                    perInstance,
                    1,
                    0,
                    0,
                    0,
                    () ->
                            String.format(
                                    Locale.ROOT,
                                    "only parallelism %d observed: capacity assumed linear in"
                                            + " parallelism (DS2), %.1f rec/s per instance",
                                    only.getKey(),
                                    perInstance));
        }
        ScalabilityModel power = power(points);
        if (points.size() < 3) {
            return power;
        }
        ScalabilityModel usl = UslFit.fit(points);
        return usl.rmsRelativeError() < Math.sqrt(USL_ADVANTAGE) * power.rmsRelativeError()
                ? usl
                : power;
    }

    static SortedMap<Integer, Double> medians(List<CapacityObservation> observations) {
        Map<Integer, List<Double>> byP =
                observations.stream()
                        .collect(
                                Collectors.groupingBy(
                                        CapacityObservation::parallelism,
                                        TreeMap::new,
                                        Collectors.mapping(
                                                CapacityObservation::capacity,
                                                Collectors.toList())));
        SortedMap<Integer, Double> medians = new TreeMap<>();
        byP.forEach(
                (p, cs) ->
                        medians.put(
                                p,
                                new Median().evaluate(cs.stream().mapToDouble(d -> d).toArray())));
        return medians;
    }

    private static ScalabilityModel power(Map<Integer, Double> points) {
        SimpleRegression r = new SimpleRegression();
        points.forEach((p, c) -> r.addData(Math.log(p), Math.log(c)));
        double slope = r.getSlope();
        double alpha = Math.max(MIN_ALPHA, Math.min(1, slope));
        // With α clamped, the least-squares intercept for that fixed α is the mean of log c − α·log
        // p.
        double logLambda =
                points.entrySet().stream()
                        .mapToDouble(e -> Math.log(e.getValue()) - alpha * Math.log(e.getKey()))
                        .average()
                        .orElseThrow();
        ScalabilityModel unexplained =
                new ScalabilityModel(
                        ScalabilityModel.Kind.POWER, Math.exp(logLambda), alpha, 0, 0, 0, () -> "");
        double rms = rmsRelativeError(unexplained, points);
        double lambda = Math.exp(logLambda);
        List<Integer> fitted = List.copyOf(points.keySet());
        return new ScalabilityModel(
                ScalabilityModel.Kind.POWER,
                lambda,
                alpha,
                0,
                0,
                rms,
                () ->
                        String.format(
                                Locale.ROOT,
                                "capacity ≈ %.1f · p^%.2f%s, fitted on parallelisms %s (rms error"
                                        + " %.1f %%)",
                                lambda,
                                alpha,
                                clamp(slope),
                                fitted,
                                100 * rms));
    }

    private static String clamp(double slope) {
        return slope > 1
                ? " (fitted " + fmt(slope) + ", clamped: capacity never grows faster than linearly)"
                : slope < MIN_ALPHA
                        ? " (fitted " + fmt(slope) + ", clamped: added instances added no capacity)"
                        : "";
    }

    static double rmsRelativeError(ScalabilityModel m, Map<Integer, Double> points) {
        double sum = 0;
        for (Map.Entry<Integer, Double> e : points.entrySet()) {
            double rel = (m.capacityAt(e.getKey()) - e.getValue()) / e.getValue();
            sum += rel * rel;
        }
        return Math.sqrt(sum / points.size());
    }

    static String fmt(double x) {
        return String.format(Locale.ROOT, "%.2f", x);
    }
}
