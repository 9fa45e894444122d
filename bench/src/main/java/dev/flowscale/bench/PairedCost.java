package dev.flowscale.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The relative cost of one contender against another from paired runs: per round (on − off) / off,
 * their mean with a 95 % percentile-bootstrap interval (10,000 resamples of the rounds, a fixed
 * seed, so the same runs give the same interval), and their median.
 */
record PairedCost(double mean, double low, double high, double median, int rounds) {
    private static final int RESAMPLES = 10_000;

    /** {@code on.get(i)} and {@code off.get(i)} are the two runs of round i. */
    static PairedCost of(List<Double> on, List<Double> off) {
        if (on.size() != off.size() || on.size() < 2) {
            throw new IllegalArgumentException(
                    "need two or more rounds of both, got " + on.size() + " and " + off.size());
        }
        double[] costs = new double[on.size()];
        List<Double> asList = new ArrayList<>();
        for (int i = 0; i < costs.length; i++) {
            costs[i] = (on.get(i) - off.get(i)) / off.get(i);
            asList.add(costs[i]);
        }
        double[] means = resampledMeans(costs);
        return new PairedCost(
                mean(costs),
                means[(int) (RESAMPLES * 0.025)],
                means[(int) (RESAMPLES * 0.975) - 1],
                Stats.of(asList).median(),
                costs.length);
    }

    private static double[] resampledMeans(double[] costs) {
        SplittableRandom random = new SplittableRandom(1);
        double[] means = new double[RESAMPLES];
        for (int r = 0; r < RESAMPLES; r++) {
            double sum = 0;
            for (int i = 0; i < costs.length; i++) {
                sum += costs[random.nextInt(costs.length)];
            }
            means[r] = sum / costs.length;
        }
        Arrays.sort(means);
        return means;
    }

    private static double mean(double[] values) {
        return Arrays.stream(values).average().orElseThrow();
    }
}
