package dev.flowscale.bench;

import java.util.Arrays;
import java.util.List;

/** Median, minimum and maximum of a few runs. */
record Stats(double median, double min, double max, int runs) {

    static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no runs to summarise");
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Stats(median, sorted[0], sorted[n - 1], n);
    }
}
