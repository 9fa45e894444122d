package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Settings of {@code Ds2Policy} and its guards. Defaults ({@link #defaults()}) give exact DS2: no
 * catch-up, utilization 1.0, no bounds besides max parallelism, no alignment, no dead band, no
 * scale-down delay, no warm-up, metrics accepted up to 5 minutes old.
 *
 * @param catchUpDuration time in which a source's backlog should drain; zero disables
 * @param expectedRescaleDuration downtime assumed for a rescale when history has no measurement
 * @param targetUtilization share of an instance's capacity to plan for, in (0, 1]
 * @param jobBounds bounds applied to every operator
 * @param operatorBounds bounds per operator id, overriding {@code jobBounds}
 * @param alignToKeyGroups prefer parallelism dividing the key groups evenly
 * @param alignmentMaxIncrease largest relative increase accepted for alignment (0.25 = +25 %)
 * @param deadBand relative change per operator tolerated without rescaling
 * @param scaleDownDelay how long a scale-down must be recommended before it applies
 * @param warmUp period after a rescale whose samples are ignored
 * @param maxMetricsAge windows that ended longer ago are stale
 * @param sourceTargetRates user-given target rates (records/s) per source id
 * @param skewCorrection size keyed operators for their hottest instance, estimated from
 *     per-instance observed rates (needs per-instance metrics)
 * @param noiseTolerance measurement noise tolerated when asking whether the running configuration
 *     sustains its target: an operator whose required rate is at most this fraction above what it
 *     runs at is not a reason to rescale by itself (a real shortfall builds a backlog, which is);
 *     sizing always rounds up, never below what sustains the target
 * @param downtimePercentile percentile of the measured rescale downtimes (per path) planned for
 * @param maxRescalesPerHour rescale budget: at most this many rescales start in any hour; 0 = none
 * @param scaleDownInterval least time between two rescales that lower some operator
 * @param targetMaxLag backlog (in seconds of the source's rate) that may stand without a rescale;
 *     zero means a backlog counts once it exceeds one second
 * @param savingsHorizon a trim must save more instance-time over this horizon than the
 *     instance-time its downtime costs
 * @param loadChange relative change of the sources' total rate that counts as a load change: it
 *     restarts the scale-down delay, and a trim is followed by another only after the load has
 *     fallen by more than this
 * @param learnScalability size operators with capacity curves fitted to the parallelisms the job
 *     has run at, instead of DS2's linear extrapolation
 * @param scalabilityPrior exponent α of capacity ∝ p^α assumed when scaling an operator above the
 *     only parallelism it was measured at (1 = linear, as DS2)
 * @param confirmNeed a needed rescale waits for a second window in a row to show the need, so it is
 *     sized on a window wholly after a load change
 * @param predictive size each source for the higher of its offered rate and the forecast of its
 *     rate (fitted to its past decisions) until the next decision can take effect: the window
 *     length plus the expected rescale downtime
 * @param forecastPeriod period of the sources' rate the forecast fits; zero detects it
 * @param coreWaitCorrection take true rates over useful time less the operators' wait for a core
 *     (off by default: the wait is always reported in the decision's reasons, but the run delay a
 *     thread accumulates is not yet attributed to the useful time it fell in exactly enough to size
 *     by it)
 */
public record PolicyConfig(
        Duration catchUpDuration,
        Duration expectedRescaleDuration,
        double targetUtilization,
        ParallelismBounds jobBounds,
        Map<String, ParallelismBounds> operatorBounds,
        boolean alignToKeyGroups,
        double alignmentMaxIncrease,
        double deadBand,
        Duration scaleDownDelay,
        Duration warmUp,
        Duration maxMetricsAge,
        Map<String, Double> sourceTargetRates,
        boolean skewCorrection,
        double noiseTolerance,
        double downtimePercentile,
        int maxRescalesPerHour,
        Duration scaleDownInterval,
        Duration targetMaxLag,
        Duration savingsHorizon,
        double loadChange,
        boolean learnScalability,
        double scalabilityPrior,
        boolean confirmNeed,
        boolean predictive,
        Duration forecastPeriod,
        boolean coreWaitCorrection) {

    public PolicyConfig {
        Checks.notNegative(catchUpDuration, "policy catchUpDuration");
        Checks.notNegative(expectedRescaleDuration, "policy expectedRescaleDuration");
        if (!(targetUtilization > 0 && targetUtilization <= 1)) {
            throw new PolicyException(
                    "policy targetUtilization is "
                            + targetUtilization
                            + "; use a value in (0, 1], e.g. 0.8 for 20 % headroom");
        }
        Checks.notNull(jobBounds, "policy jobBounds");
        operatorBounds = Map.copyOf(operatorBounds);
        Checks.finiteNotNegative(alignmentMaxIncrease, "policy alignmentMaxIncrease");
        Checks.finiteNotNegative(deadBand, "policy deadBand");
        Checks.notNegative(scaleDownDelay, "policy scaleDownDelay");
        Checks.notNegative(warmUp, "policy warmUp");
        Checks.notNegative(maxMetricsAge, "policy maxMetricsAge");
        sourceTargetRates = Map.copyOf(sourceTargetRates);
        if (!(noiseTolerance >= 0 && noiseTolerance < 0.5)) {
            throw new PolicyException(
                    "policy noiseTolerance is "
                            + noiseTolerance
                            + "; use a fraction in [0, 0.5), e.g. 0.02 when rates are measured over short windows");
        }
        sourceTargetRates.forEach(
                (id, rate) -> Checks.finiteNotNegative(rate, "target rate of source '" + id + "'"));
        if (!(downtimePercentile > 0 && downtimePercentile <= 1)) {
            throw new PolicyException(
                    "policy downtimePercentile is "
                            + downtimePercentile
                            + "; use a fraction in (0, 1], e.g. 0.9 to plan for the 90th percentile of measured downtimes");
        }
        if (maxRescalesPerHour < 0) {
            throw new PolicyException(
                    "policy maxRescalesPerHour is "
                            + maxRescalesPerHour
                            + "; use 0 for no budget or a positive count, e.g. 6");
        }
        Checks.notNegative(scaleDownInterval, "policy scaleDownInterval");
        Checks.notNegative(targetMaxLag, "policy targetMaxLag");
        Checks.notNegative(savingsHorizon, "policy savingsHorizon");
        if (!(scalabilityPrior >= 0.5 && scalabilityPrior <= 1)) {
            throw new PolicyException(
                    "policy scalabilityPrior is "
                            + scalabilityPrior
                            + "; use an exponent in [0.5, 1], e.g. 0.8 (1 assumes linear scaling, as DS2)");
        }
        Checks.notNegative(forecastPeriod, "policy forecastPeriod (0s detects the period)");
        if (!(loadChange > 0 && loadChange < 1)) {
            throw new PolicyException(
                    "policy loadChange is "
                            + loadChange
                            + "; use a fraction in (0, 1), e.g. 0.1 to treat a 10 % change of the sources' rate as a load change");
        }
    }

    /** Seconds of catch-up as a double; 0 when catch-up is disabled. */
    public double catchUpSeconds() {
        return catchUpDuration.toNanos() / 1e9;
    }

    /**
     * The paper's exact DS2: no catch-up, no guards, linear scaling, no skew correction, and no
     * noise tolerance, so that any shortfall rounds up to the next instance. It is what {@link
     * #builder()} starts from, for tests and the simulator's "DS2 exact" contender; the defaults a
     * user gets (command line, operator, CRD, Helm) are the settings table's, {@link
     * dev.flowscale.policy.settings.SettingValues#defaults()}{@code .policy()}.
     */
    public static PolicyConfig exactDs2() {
        return builder().build();
    }

    /** A builder starting from {@link #exactDs2()}. */
    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.catchUp = catchUpDuration;
        b.rescale = expectedRescaleDuration;
        b.utilization = targetUtilization;
        b.jobBounds = jobBounds;
        b.operatorBounds.putAll(operatorBounds);
        b.align = alignToKeyGroups;
        b.alignMax = alignmentMaxIncrease;
        b.deadBand = deadBand;
        b.scaleDownDelay = scaleDownDelay;
        b.warmUp = warmUp;
        b.maxAge = maxMetricsAge;
        b.targets.putAll(sourceTargetRates);
        b.skew = skewCorrection;
        b.noise = noiseTolerance;
        b.percentile = downtimePercentile;
        b.budget = maxRescalesPerHour;
        b.scaleDownInterval = scaleDownInterval;
        b.maxLag = targetMaxLag;
        b.horizon = savingsHorizon;
        b.confirm = confirmNeed;
        b.loadChange = loadChange;
        b.learn = learnScalability;
        b.prior = scalabilityPrior;
        b.predictive = predictive;
        b.forecastPeriod = forecastPeriod;
        b.coreWait = coreWaitCorrection;
        return b;
    }

    /** Bounds for one operator: its own if configured, else the job's. */
    public ParallelismBounds boundsOf(String operatorId) {
        return operatorBounds.getOrDefault(operatorId, jobBounds);
    }

    /** Mutable builder of {@link PolicyConfig}. */
    public static final class Builder {
        private Duration catchUp = Duration.ZERO;
        private Duration rescale = Duration.ofSeconds(30);
        private double utilization = 1.0;
        private ParallelismBounds jobBounds = ParallelismBounds.UNBOUNDED;
        private final Map<String, ParallelismBounds> operatorBounds = new HashMap<>();
        private boolean align;
        private double alignMax = 0.25;
        private double deadBand;
        private Duration scaleDownDelay = Duration.ZERO;
        private Duration warmUp = Duration.ZERO;
        private Duration maxAge = Duration.ofMinutes(5);
        private final Map<String, Double> targets = new HashMap<>();
        private boolean skew;
        // the paper's DS2 rounds every shortfall up: no tolerance
        private double noise = 0;
        private double percentile = 0.9;
        private int budget;
        private Duration scaleDownInterval = Duration.ZERO;
        private Duration maxLag = Duration.ZERO;
        private Duration horizon = Duration.ofHours(1);
        private boolean confirm;
        private double loadChange = 0.1;
        private boolean learn;
        private double prior = 1;
        private boolean predictive;
        private Duration forecastPeriod = Duration.ZERO;
        private boolean coreWait;

        public Builder catchUpDuration(Duration d) {
            catchUp = d;
            return this;
        }

        public Builder expectedRescaleDuration(Duration d) {
            rescale = d;
            return this;
        }

        public Builder targetUtilization(double u) {
            utilization = u;
            return this;
        }

        public Builder jobBounds(int min, int max) {
            jobBounds = new ParallelismBounds(min, max);
            return this;
        }

        public Builder operatorBounds(String id, int min, int max) {
            operatorBounds.put(id, new ParallelismBounds(min, max));
            return this;
        }

        public Builder alignToKeyGroups(double maxIncrease) {
            align = true;
            alignMax = maxIncrease;
            return this;
        }

        public Builder deadBand(double tolerance) {
            deadBand = tolerance;
            return this;
        }

        public Builder scaleDownDelay(Duration d) {
            scaleDownDelay = d;
            return this;
        }

        public Builder warmUp(Duration d) {
            warmUp = d;
            return this;
        }

        public Builder maxMetricsAge(Duration d) {
            maxAge = d;
            return this;
        }

        public Builder sourceTargetRate(String sourceId, double recordsPerSecond) {
            targets.put(sourceId, recordsPerSecond);
            return this;
        }

        public Builder skewCorrection(boolean enabled) {
            skew = enabled;
            return this;
        }

        /**
         * Measurement noise tolerated before a running operator counts as unable to sustain its
         * target (see {@link PolicyConfig#noiseTolerance()}). Default 0, as in the paper's DS2: an
         * operator needing 10.01 instances at 10 is rescaled to 11.
         */
        public Builder noiseTolerance(double fraction) {
            noise = fraction;
            return this;
        }

        public Builder downtimePercentile(double fraction) {
            percentile = fraction;
            return this;
        }

        public Builder maxRescalesPerHour(int count) {
            budget = count;
            return this;
        }

        public Builder scaleDownInterval(Duration d) {
            scaleDownInterval = d;
            return this;
        }

        public Builder targetMaxLag(Duration d) {
            maxLag = d;
            return this;
        }

        public Builder savingsHorizon(Duration d) {
            horizon = d;
            return this;
        }

        public Builder confirmNeed(boolean enabled) {
            confirm = enabled;
            return this;
        }

        public Builder loadChange(double fraction) {
            loadChange = fraction;
            return this;
        }

        public Builder learnScalability(boolean enabled) {
            learn = enabled;
            return this;
        }

        public Builder scalabilityPrior(double exponent) {
            prior = exponent;
            return this;
        }

        public Builder predictive(boolean enabled) {
            predictive = enabled;
            return this;
        }

        /**
         * Period of the sources' rate for the predictive mode's forecast; {@link Duration#ZERO}
         * detects it.
         */
        public Builder forecastPeriod(Duration d) {
            forecastPeriod = d;
            return this;
        }

        /** Whether true rates are taken over useful time less the wait for a core. */
        public Builder coreWaitCorrection(boolean enabled) {
            coreWait = enabled;
            return this;
        }

        public PolicyConfig build() {
            return new PolicyConfig(
                    catchUp,
                    rescale,
                    utilization,
                    jobBounds,
                    operatorBounds,
                    align,
                    alignMax,
                    deadBand,
                    scaleDownDelay,
                    warmUp,
                    maxAge,
                    targets,
                    skew,
                    noise,
                    percentile,
                    budget,
                    scaleDownInterval,
                    maxLag,
                    horizon,
                    loadChange,
                    learn,
                    prior,
                    confirm,
                    predictive,
                    forecastPeriod,
                    coreWait);
        }
    }
}
