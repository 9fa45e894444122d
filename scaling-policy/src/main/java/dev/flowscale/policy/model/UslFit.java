package dev.flowscale.policy.model;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;
import org.apache.commons.math3.util.Pair;

/**
 * Fits the Universal Scalability Law c(p) = λp / (1 + σ(p−1) + κp(p−1)) by Levenberg–Marquardt on
 * relative residuals (c_fit / c_observed − 1), so a large parallelism's big numbers do not drown
 * the small ones. The start comes from the law's linear form: p / c = 1/λ + (σ+κ)/λ·x + κ/λ·x² with
 * x = p − 1, solved by ordinary least squares. σ and κ are kept at 0 or above.
 */
final class UslFit {

    private UslFit() {}

    static ScalabilityModel fit(Map<Integer, Double> points) {
        double[] ps = points.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
        double[] cs = points.values().stream().mapToDouble(Double::doubleValue).toArray();
        LeastSquaresOptimizer.Optimum optimum =
                new LevenbergMarquardtOptimizer()
                        .optimize(
                                new LeastSquaresBuilder()
                                        .start(start(ps, cs))
                                        .model(p -> evaluate(p, ps, cs))
                                        .target(new ArrayRealVector(ps.length, 1.0))
                                        .parameterValidator(UslFit::feasible)
                                        .maxEvaluations(1_000)
                                        .maxIterations(1_000)
                                        .build());
        double[] x = feasible(optimum.getPoint()).toArray();
        ScalabilityModel m =
                new ScalabilityModel(ScalabilityModel.Kind.USL, x[0], 1, x[1], x[2], 0, () -> "");
        double rms = ScalabilityFit.rmsRelativeError(m, points);
        List<Integer> fitted = List.copyOf(points.keySet());
        return new ScalabilityModel(
                ScalabilityModel.Kind.USL,
                x[0],
                1,
                x[1],
                x[2],
                rms,
                () ->
                        String.format(
                                Locale.ROOT,
                                "capacity ≈ %.1f·p / (1 + %.4f·(p−1) + %.5f·p(p−1)) (Universal Scalability Law), fitted on"
                                        + " parallelisms %s (rms error %.1f %%)%s",
                                x[0],
                                x[1],
                                x[2],
                                fitted,
                                100 * rms,
                                peak(x[1], x[2])));
    }

    private static String peak(double sigma, double kappa) {
        return kappa > 0
                ? String.format(
                        Locale.ROOT,
                        "; capacity peaks near parallelism %.0f",
                        Math.sqrt((1 - Math.min(sigma, 1)) / kappa))
                : "";
    }

    private static double[] start(double[] ps, double[] cs) {
        double[] y = new double[ps.length];
        double[][] x = new double[ps.length][];
        for (int i = 0; i < ps.length; i++) {
            y[i] = ps[i] / cs[i];
            x[i] = new double[] {ps[i] - 1, (ps[i] - 1) * (ps[i] - 1)};
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.newSampleData(y, x);
        double[] b = ols.estimateRegressionParameters();
        double lambda = b[0] > 0 ? 1 / b[0] : cs[0] / ps[0];
        double kappa = Math.max(0, b[2] * lambda);
        return new double[] {lambda, Math.max(0, b[1] * lambda - kappa), kappa};
    }

    private static RealVector feasible(RealVector v) {
        return new ArrayRealVector(
                new double[] {
                    Math.max(1e-9, v.getEntry(0)),
                    Math.max(0, v.getEntry(1)),
                    Math.max(0, v.getEntry(2))
                });
    }

    /** Relative model values and their Jacobian in (λ, σ, κ). */
    private static Pair<RealVector, RealMatrix> evaluate(
            RealVector params, double[] ps, double[] cs) {
        double lambda = params.getEntry(0);
        double sigma = params.getEntry(1);
        double kappa = params.getEntry(2);
        double[] value = new double[ps.length];
        double[][] jacobian = new double[ps.length][3];
        for (int i = 0; i < ps.length; i++) {
            double p = ps[i];
            double d = 1 + sigma * (p - 1) + kappa * p * (p - 1);
            value[i] = lambda * p / d / cs[i];
            jacobian[i][0] = p / d / cs[i];
            jacobian[i][1] = -lambda * p * (p - 1) / (d * d) / cs[i];
            jacobian[i][2] = -lambda * p * p * (p - 1) / (d * d) / cs[i];
        }
        return new Pair<>(
                new ArrayRealVector(value, false), new Array2DRowRealMatrix(jacobian, false));
    }
}
