package dev.flowscale.bench;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * The relative cost of one contender against another from paired runs: per round (on − off) / off,
 * their mean and their median, each with a 95 % percentile-bootstrap interval (10,000 resamples of
 * the rounds, a fixed seed, so the same runs give the same intervals). The median's interval is the
 * one to read on a shared machine: one run preempted for long moves the mean, not the median.
 */
record PairedCost(Estimate mean, Estimate median, int rounds) {
    private static final int RESAMPLES = 10_000;

    /** A figure and its 95 % interval. */
    record Estimate(double value, double low, double high) {}

    /** {@code on.get(i)} and {@code off.get(i)} are the two runs of round i. */
    static PairedCost of(List<Double> on, List<Double> off) {
        if (on.size() != off.size() || on.size() < 2) {
            throw new IllegalArgumentException(
                    "need two or more rounds of both, got " + on.size() + " and " + off.size());
        }
        double[] costs = new double[on.size()];
        for (int i = 0; i < costs.length; i++) {
            costs[i] = (on.get(i) - off.get(i)) / off.get(i);
        }
        return new PairedCost(
                estimate(costs, PairedCost::mean),
                estimate(costs, PairedCost::median),
                costs.length);
    }

    private static Estimate estimate(double[] costs, ToDoubleFunction<double[]> statistic) {
        SplittableRandom random = new SplittableRandom(1);
        double[] resampled = new double[RESAMPLES];
        double[] sample = new double[costs.length];
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < costs.length; i++) {
                sample[i] = costs[random.nextInt(costs.length)];
            }
            resampled[r] = statistic.applyAsDouble(sample);
        }
        Arrays.sort(resampled);
        return new Estimate(
                statistic.applyAsDouble(costs),
                resampled[(int) (RESAMPLES * 0.025)],
                resampled[(int) (RESAMPLES * 0.975) - 1]);
    }

    private static double mean(double[] values) {
        return Arrays.stream(values).average().orElseThrow();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
