package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * An operator's aggregate capacity c(p) at parallelism p, in records per second:
 *
 * <ul>
 *   <li>{@code LINEAR}: c(p) = λ·p, DS2's assumption (used when too few parallelisms were seen);
 *   <li>{@code POWER}: c(p) = λ·p^α with 0 &lt; α ≤ 1 (sublinear scaling);
 *   <li>{@code USL}: the Universal Scalability Law c(p) = λ·p / (1 + σ(p−1) + κ·p(p−1)), where σ is
 *       contention and κ coherency cost; capacity peaks at p = √((1−σ)/κ) and falls beyond.
 * </ul>
 *
 * <p>Immutable. The explanation is formatted when first read: a decision fits every operator's
 * curve but reads the explanation of only the few whose sizing it reports.
 */
public final class ScalabilityModel {

    private final Kind kind;
    private final double lambda;
    private final double alpha;
    private final double sigma;
    private final double kappa;
    private final double rmsRelativeError;
    private final Supplier<String> explain;
    private String explanation; // cached; a race only formats it twice
    // this::explanation, made once and shared by every model anchored on this one: a decision
    // anchors every operator's curve, and a new method reference per anchor was garbage per
    // operator per decision (a race only makes two)
    private Supplier<String> explainThis;

    /** The model's shape. */
    public enum Kind {
        LINEAR,
        POWER,
        USL
    }

    /**
     * @param rmsRelativeError root mean square of (fitted − observed) / observed over the fitted
     *     points
     * @param explain one sentence saying which model was chosen and why, formatted when first read
     */
    public ScalabilityModel(
            Kind kind,
            double lambda,
            double alpha,
            double sigma,
            double kappa,
            double rmsRelativeError,
            Supplier<String> explain) {
        Checks.notNull(kind, "scalability model kind");
        if (!(lambda > 0 && Double.isFinite(lambda))) {
            throw new PolicyException(
                    "scalability model lambda is " + lambda + "; it must be a positive capacity");
        }
        if (!(alpha > 0 && alpha <= 1) || sigma < 0 || kappa < 0) {
            throw new PolicyException(
                    "scalability model has alpha "
                            + alpha
                            + ", sigma "
                            + sigma
                            + ", kappa "
                            + kappa
                            + "; alpha must be in (0, 1], sigma and kappa at least 0");
        }
        this.kind = kind;
        this.lambda = lambda;
        this.alpha = alpha;
        this.sigma = sigma;
        this.kappa = kappa;
        this.rmsRelativeError = rmsRelativeError;
        this.explain = Checks.notNull(explain, "scalability model explanation");
    }

    public Kind kind() {
        return kind;
    }

    public double lambda() {
        return lambda;
    }

    public double alpha() {
        return alpha;
    }

    public double sigma() {
        return sigma;
    }

    public double kappa() {
        return kappa;
    }

    /** Root mean square of (fitted − observed) / observed over the fitted points. */
    public double rmsRelativeError() {
        return rmsRelativeError;
    }

    /** One sentence saying which model was chosen and why. */
    public String explanation() {
        if (explanation == null) {
            explanation = Checks.notNull(explain.get(), "scalability model explanation");
        }
        return explanation;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%s(λ %s, α %s, σ %s, κ %s): %s",
                kind,
                lambda,
                alpha,
                sigma,
                kappa,
                explanation());
    }

    static ScalabilityModel linear(double perInstance, String explanation) {
        return new ScalabilityModel(Kind.LINEAR, perInstance, 1, 0, 0, 0, () -> explanation);
    }

    /** Fitted aggregate capacity at parallelism {@code p}. */
    public double capacityAt(int p) {
        Checks.positive(p, "parallelism to evaluate the scalability model at");
        return switch (kind) {
            case LINEAR -> lambda * p;
            case POWER -> lambda * Math.pow(p, alpha);
            case USL -> lambda * p / (1 + sigma * (p - 1) + kappa * (double) p * (p - 1));
        };
    }

    /**
     * The smallest parallelism in [1, maxParallelism] whose fitted capacity reaches {@code
     * requiredCapacity} (the target input rate divided by the target utilization); empty when none
     * does: more instances will not help.
     */
    public OptionalInt smallestParallelismFor(double requiredCapacity, int maxParallelism) {
        Checks.finiteNotNegative(requiredCapacity, "required capacity");
        Checks.positive(maxParallelism, "max parallelism");
        double estimate =
                Math.max(1, Math.min(maxParallelism, realParallelismFor(requiredCapacity)));
        // The closed form is exact up to rounding: settle the integer by stepping from its ceiling.
        int p = (int) Math.ceil(estimate);
        while (p > 1 && sustains(p - 1, requiredCapacity)) {
            p--;
        }
        while (p <= maxParallelism && !sustains(p, requiredCapacity)) {
            p++;
        }
        return p <= maxParallelism ? OptionalInt.of(p) : OptionalInt.empty();
    }

    private boolean sustains(int p, double requiredCapacity) {
        return capacityAt(p) >= requiredCapacity * (1 - 1e-9);
    }

    /**
     * The real p with c(p) = required, or +∞ when capacity never reaches it. Closed forms, since a
     * decision asks this for every operator: linear and power law invert directly; for the USL, λp
     * ≥ r(1 + σ(p−1) + κp(p−1)) is the quadratic rκ·p² + (rσ − rκ − λ)·p + r(1 − σ) ≤ 0.
     */
    private double realParallelismFor(double r) {
        return switch (kind) {
            case LINEAR, POWER -> Math.pow(r / lambda, 1 / alpha);
            case USL -> uslRoot(r);
        };
    }

    private double uslRoot(double r) {
        double a = r * kappa;
        double b = r * sigma - r * kappa - lambda;
        double c = r * (1 - sigma);
        if (a == 0) {
            return b < 0 ? -c / b : Double.POSITIVE_INFINITY;
        }
        double discriminant = b * b - 4 * a * c;
        return discriminant < 0
                ? Double.POSITIVE_INFINITY
                : (-b - Math.sqrt(discriminant)) / (2 * a);
    }

    /**
     * The same shape scaled to pass through a measurement (usually the current window's): the fit
     * gives how capacity grows, the latest window gives its level.
     */
    public ScalabilityModel anchoredAt(int p, double capacity) {
        if (!(capacity > 0 && Double.isFinite(capacity))) {
            throw new PolicyException(
                    "cannot anchor the scalability model at capacity "
                            + capacity
                            + "; use a measured capacity > 0");
        }
        double scale = capacity / capacityAt(p);
        if (explainThis == null) {
            explainThis = this::explanation;
        }
        return new ScalabilityModel(
                kind, lambda * scale, alpha, sigma, kappa, rmsRelativeError, explainThis);
    }
}
