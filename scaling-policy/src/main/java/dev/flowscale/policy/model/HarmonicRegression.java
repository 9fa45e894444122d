package dev.flowscale.policy.model;

import java.util.Optional;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Period detection and harmonic least squares on evenly spaced values. A period is accepted only
 * when the detrended series' autocorrelation has a local peak of at least {@value #MIN_PEAK} at a
 * lag that fits at least {@value #MIN_CYCLES} times into the series, after dipping below {@value
 * #MAX_TROUGH}: a step or a ramp decays without such a peak, so it is not taken for a cycle.
 */
final class HarmonicRegression {

    static final double MIN_PEAK = 0.3;
    static final double MAX_TROUGH = -0.1;
    static final int MIN_CYCLES = 3;

    private HarmonicRegression() {}

    /** The regressors of one sample: t, then sin and cos of each harmonic. */
    static double[] row(double t, double period, int harmonics) {
        double[] row = new double[1 + 2 * harmonics];
        row[0] = t;
        for (int k = 1; k <= harmonics; k++) {
            double angle = 2 * Math.PI * k * t / period;
            row[2 * k - 1] = Math.sin(angle);
            row[2 * k] = Math.cos(angle);
        }
        return row;
    }

    /** Least-squares b0, b1, s_1, c_1, ... and the R² of the fit. */
    static Fit fit(double[] t, double[] y, double period, int harmonics) {
        double[][] x = new double[t.length][];
        for (int i = 0; i < t.length; i++) {
            x[i] = row(t[i], period, harmonics);
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.newSampleData(y, x);
        return new Fit(ols.estimateRegressionParameters(), ols.calculateRSquared());
    }

    record Fit(double[] coefficients, double rSquared) {}

    /**
     * The period in samples (fractional, refined around the autocorrelation peak), if there is one.
     */
    static Optional<Double> detectPeriod(double[] y) {
        double[] r = autocorrelation(detrended(y), y.length / MIN_CYCLES);
        boolean dipped = false;
        for (int lag = 2; lag < r.length - 1; lag++) {
            dipped |= r[lag] < MAX_TROUGH;
            if (dipped && r[lag] >= MIN_PEAK && r[lag] > r[lag - 1] && r[lag] >= r[lag + 1]) {
                return Optional.of(lag + vertexOffset(r[lag - 1], r[lag], r[lag + 1]));
            }
        }
        return Optional.empty();
    }

    /** Offset of a parabola's vertex through three equally spaced points, from the middle one. */
    private static double vertexOffset(double left, double mid, double right) {
        double curvature = left - 2 * mid + right;
        return curvature == 0 ? 0 : 0.5 * (left - right) / curvature;
    }

    private static double[] detrended(double[] y) {
        SimpleRegression line = new SimpleRegression();
        for (int i = 0; i < y.length; i++) {
            line.addData(i, y[i]);
        }
        double[] d = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            d[i] = y[i] - line.predict(i);
        }
        return d;
    }

    /** r_k = Σ d_i·d_{i+k} / Σ d_i², k = 0 .. maxLag. */
    private static double[] autocorrelation(double[] d, int maxLag) {
        double energy = 0;
        for (double v : d) {
            energy += v * v;
        }
        double[] r = new double[maxLag + 1];
        for (int k = 0; k <= maxLag && energy > 0; k++) {
            double sum = 0;
            for (int i = 0; i + k < d.length; i++) {
                sum += d[i] * d[i + k];
            }
            r[k] = sum / energy;
        }
        return r;
    }
}
