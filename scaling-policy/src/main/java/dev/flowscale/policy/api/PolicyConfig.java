package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.util.Map;

/**
 * Settings of {@code Ds2Policy} and its guards, grouped by what they govern. The settings table
 * ({@link dev.flowscale.policy.settings.SettingValues}) is their one source and builds them through
 * {@link #builder()}; each setting also reads directly by its name ({@link #targetUtilization()}
 * and so on). {@link #exactDs2()} gives exact DS2: no catch-up, utilization 1.0, no bounds besides
 * max parallelism, no alignment, no dead band, no scale-down delay, no warm-up, metrics accepted up
 * to 5 minutes old.
 *
 * @param targets what each operator is sized for
 * @param bounds where an operator's parallelism may go
 * @param scaleDown when a lower parallelism is worth a rescale
 * @param rescaleCost what a rescale is assumed to cost, and how many may start
 * @param guards which windows a decision may act on
 * @param model how capacity and rates are modelled beyond DS2's linear extrapolation
 */
public record PolicyConfig(
        Targets targets,
        Bounds bounds,
        ScaleDown scaleDown,
        RescaleCost rescaleCost,
        Guards guards,
        Model model) {

    public PolicyConfig {
        Checks.notNull(targets, "policy targets");
        Checks.notNull(bounds, "policy bounds");
        Checks.notNull(scaleDown, "policy scaleDown");
        Checks.notNull(rescaleCost, "policy rescaleCost");
        Checks.notNull(guards, "policy guards");
        Checks.notNull(model, "policy model");
    }

    /**
     * What each operator is sized for.
     *
     * @param targetUtilization share of an instance's capacity to plan for, in (0, 1]
     * @param sourceTargetRates user-given target rates (records/s) per source id
     * @param catchUpDuration time in which a source's backlog should drain; zero disables
     * @param targetMaxLag backlog (in seconds of the source's rate) that may stand without a
     *     rescale; zero means a backlog counts once it exceeds one second
     * @param noiseTolerance measurement noise tolerated when asking whether the running
     *     configuration sustains its target: an operator whose required rate is at most this
     *     fraction above what it runs at is not a reason to rescale by itself (a real shortfall
     *     builds a backlog, which is); sizing always rounds up, never below what sustains the
     *     target
     */
    public record Targets(
            double targetUtilization,
            Map<String, Double> sourceTargetRates,
            Duration catchUpDuration,
            Duration targetMaxLag,
            double noiseTolerance) {
        public Targets {
            if (!(targetUtilization > 0 && targetUtilization <= 1)) {
                throw new PolicyException(
                        "policy targetUtilization is "
                                + targetUtilization
                                + "; use a value in (0, 1], e.g. 0.8 for 20 % headroom");
            }
            sourceTargetRates = Map.copyOf(sourceTargetRates);
            sourceTargetRates.forEach(
                    (id, rate) ->
                            Checks.finiteNotNegative(rate, "target rate of source '" + id + "'"));
            Checks.notNegative(catchUpDuration, "policy catchUpDuration");
            Checks.notNegative(targetMaxLag, "policy targetMaxLag");
            if (!(noiseTolerance >= 0 && noiseTolerance < 0.5)) {
                throw new PolicyException(
                        "policy noiseTolerance is "
                                + noiseTolerance
                                + "; use a fraction in [0, 0.5), e.g. 0.02 when rates are measured over short windows");
            }
        }
    }

    /**
     * Where an operator's parallelism may go.
     *
     * @param jobBounds bounds applied to every operator
     * @param operatorBounds bounds per operator id, overriding {@code jobBounds}
     * @param alignToKeyGroups prefer parallelism dividing the key groups evenly
     * @param alignmentMaxIncrease largest relative increase accepted for alignment (0.25 = +25 %)
     */
    public record Bounds(
            ParallelismBounds jobBounds,
            Map<String, ParallelismBounds> operatorBounds,
            boolean alignToKeyGroups,
            double alignmentMaxIncrease) {
        public Bounds {
            Checks.notNull(jobBounds, "policy jobBounds");
            operatorBounds = Map.copyOf(operatorBounds);
            Checks.finiteNotNegative(alignmentMaxIncrease, "policy alignmentMaxIncrease");
        }
    }

    /**
     * When a lower parallelism is worth a rescale.
     *
     * @param deadBand relative change per operator tolerated without rescaling
     * @param scaleDownDelay how long a scale-down must be recommended before it applies
     * @param scaleDownInterval least time between two rescales that lower some operator
     * @param savingsHorizon a trim must save more instance-time over this horizon than the
     *     instance-time its downtime costs
     * @param loadChange relative change of the sources' total rate that counts as a load change: it
     *     restarts the scale-down delay, and a trim is followed by another only after the load has
     *     fallen by more than this
     */
    public record ScaleDown(
            double deadBand,
            Duration scaleDownDelay,
            Duration scaleDownInterval,
            Duration savingsHorizon,
            double loadChange) {
        public ScaleDown {
            Checks.finiteNotNegative(deadBand, "policy deadBand");
            Checks.notNegative(scaleDownDelay, "policy scaleDownDelay");
            Checks.notNegative(scaleDownInterval, "policy scaleDownInterval");
            Checks.notNegative(savingsHorizon, "policy savingsHorizon");
            if (!(loadChange > 0 && loadChange < 1)) {
                throw new PolicyException(
                        "policy loadChange is "
                                + loadChange
                                + "; use a fraction in (0, 1), e.g. 0.1 to treat a 10 % change of the sources' rate as a load change");
            }
        }
    }

    /**
     * What a rescale is assumed to cost, and how many may start.
     *
     * @param expectedRescaleDuration downtime assumed for a rescale when history has no measurement
     * @param downtimePercentile percentile of the measured rescale downtimes (per path) planned for
     * @param maxRescalesPerHour rescale budget: at most this many rescales start in any hour; 0 =
     *     none
     */
    public record RescaleCost(
            Duration expectedRescaleDuration, double downtimePercentile, int maxRescalesPerHour) {
        public RescaleCost {
            Checks.notNegative(expectedRescaleDuration, "policy expectedRescaleDuration");
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
        }
    }

    /**
     * Which windows a decision may act on.
     *
     * @param warmUp period after a rescale whose samples are ignored
     * @param maxMetricsAge windows that ended longer ago are stale
     * @param confirmNeed a needed rescale waits for a second window in a row to show the need, so
     *     it is sized on a window wholly after a load change
     * @param coreWaitCorrection take true rates over useful time less the operators' wait for a
     *     core; off in {@link PolicyConfig#exactDs2()} (the paper's DS2), on in the settings
     *     table's defaults ({@code Setting.CORE_WAIT_CORRECTION}); the wait is reported in the
     *     decision's reasons either way
     */
    public record Guards(
            Duration warmUp,
            Duration maxMetricsAge,
            boolean confirmNeed,
            boolean coreWaitCorrection) {
        public Guards {
            Checks.notNegative(warmUp, "policy warmUp");
            Checks.notNegative(maxMetricsAge, "policy maxMetricsAge");
        }
    }

    /**
     * How capacity and rates are modelled beyond DS2's linear extrapolation.
     *
     * @param skewCorrection size keyed operators for their hottest instance, estimated from
     *     per-instance observed rates (needs per-instance metrics)
     * @param learnScalability size operators with capacity curves fitted to the parallelisms the
     *     job has run at, instead of DS2's linear extrapolation
     * @param scalabilityPrior exponent α of capacity ∝ p^α assumed when scaling an operator above
     *     the only parallelism it was measured at (1 = linear, as DS2)
     * @param predictive size each source for the higher of its offered rate and the forecast of its
     *     rate (fitted to its past decisions) until the next decision can take effect: the window
     *     length plus the expected rescale downtime
     * @param forecastPeriod period of the sources' rate the forecast fits; zero detects it
     */
    public record Model(
            boolean skewCorrection,
            boolean learnScalability,
            double scalabilityPrior,
            boolean predictive,
            Duration forecastPeriod) {
        public Model {
            if (!(scalabilityPrior >= 0.5 && scalabilityPrior <= 1)) {
                throw new PolicyException(
                        "policy scalabilityPrior is "
                                + scalabilityPrior
                                + "; use an exponent in [0.5, 1], e.g. 0.8 (1 assumes linear scaling, as DS2)");
            }
            Checks.notNegative(forecastPeriod, "policy forecastPeriod (0s detects the period)");
        }
    }

    // Each setting by its own name, as the policy's steps read it; documented on its group.

    public double targetUtilization() {
        return targets.targetUtilization();
    }

    public Map<String, Double> sourceTargetRates() {
        return targets.sourceTargetRates();
    }

    public Duration catchUpDuration() {
        return targets.catchUpDuration();
    }

    /** Seconds of catch-up as a double; 0 when catch-up is disabled. */
    public double catchUpSeconds() {
        return catchUpDuration().toNanos() / 1e9;
    }

    public Duration targetMaxLag() {
        return targets.targetMaxLag();
    }

    public double noiseTolerance() {
        return targets.noiseTolerance();
    }

    public ParallelismBounds jobBounds() {
        return bounds.jobBounds();
    }

    public Map<String, ParallelismBounds> operatorBounds() {
        return bounds.operatorBounds();
    }

    /** Bounds for one operator: its own if configured, else the job's. */
    public ParallelismBounds boundsOf(String operatorId) {
        return operatorBounds().getOrDefault(operatorId, jobBounds());
    }

    public boolean alignToKeyGroups() {
        return bounds.alignToKeyGroups();
    }

    public double alignmentMaxIncrease() {
        return bounds.alignmentMaxIncrease();
    }

    public double deadBand() {
        return scaleDown.deadBand();
    }

    public Duration scaleDownDelay() {
        return scaleDown.scaleDownDelay();
    }

    public Duration scaleDownInterval() {
        return scaleDown.scaleDownInterval();
    }

    public Duration savingsHorizon() {
        return scaleDown.savingsHorizon();
    }

    public double loadChange() {
        return scaleDown.loadChange();
    }

    public Duration expectedRescaleDuration() {
        return rescaleCost.expectedRescaleDuration();
    }

    public double downtimePercentile() {
        return rescaleCost.downtimePercentile();
    }

    public int maxRescalesPerHour() {
        return rescaleCost.maxRescalesPerHour();
    }

    public Duration warmUp() {
        return guards.warmUp();
    }

    public Duration maxMetricsAge() {
        return guards.maxMetricsAge();
    }

    public boolean confirmNeed() {
        return guards.confirmNeed();
    }

    public boolean coreWaitCorrection() {
        return guards.coreWaitCorrection();
    }

    public boolean skewCorrection() {
        return model.skewCorrection();
    }

    public boolean learnScalability() {
        return model.learnScalability();
    }

    public double scalabilityPrior() {
        return model.scalabilityPrior();
    }

    public boolean predictive() {
        return model.predictive();
    }

    public Duration forecastPeriod() {
        return model.forecastPeriod();
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
    public static PolicyConfigBuilder builder() {
        return new PolicyConfigBuilder();
    }

    /** A builder holding these settings. */
    public PolicyConfigBuilder toBuilder() {
        return new PolicyConfigBuilder(this);
    }
}
