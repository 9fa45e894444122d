package dev.flowscale.policy.api;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Mutable builder of {@link PolicyConfig}, one setter per setting, starting from {@link
 * PolicyConfig#exactDs2()}.
 */
public final class PolicyConfigBuilder {
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

    /** A builder starting from {@link PolicyConfig#exactDs2()}. */
    PolicyConfigBuilder() {}

    /** A builder holding {@code from}'s settings, copied group by group. */
    PolicyConfigBuilder(PolicyConfig from) {
        PolicyConfig.Targets t = from.targets();
        utilization = t.targetUtilization();
        targets.putAll(t.sourceTargetRates());
        catchUp = t.catchUpDuration();
        maxLag = t.targetMaxLag();
        noise = t.noiseTolerance();
        PolicyConfig.Bounds b = from.bounds();
        jobBounds = b.jobBounds();
        operatorBounds.putAll(b.operatorBounds());
        align = b.alignToKeyGroups();
        alignMax = b.alignmentMaxIncrease();
        PolicyConfig.ScaleDown d = from.scaleDown();
        deadBand = d.deadBand();
        scaleDownDelay = d.scaleDownDelay();
        scaleDownInterval = d.scaleDownInterval();
        horizon = d.savingsHorizon();
        loadChange = d.loadChange();
        PolicyConfig.RescaleCost r = from.rescaleCost();
        rescale = r.expectedRescaleDuration();
        percentile = r.downtimePercentile();
        budget = r.maxRescalesPerHour();
        PolicyConfig.Guards g = from.guards();
        warmUp = g.warmUp();
        maxAge = g.maxMetricsAge();
        confirm = g.confirmNeed();
        coreWait = g.coreWaitCorrection();
        PolicyConfig.Model m = from.model();
        skew = m.skewCorrection();
        learn = m.learnScalability();
        prior = m.scalabilityPrior();
        predictive = m.predictive();
        forecastPeriod = m.forecastPeriod();
    }

    public PolicyConfigBuilder catchUpDuration(Duration d) {
        catchUp = d;
        return this;
    }

    public PolicyConfigBuilder expectedRescaleDuration(Duration d) {
        rescale = d;
        return this;
    }

    public PolicyConfigBuilder targetUtilization(double u) {
        utilization = u;
        return this;
    }

    public PolicyConfigBuilder jobBounds(int min, int max) {
        jobBounds = new ParallelismBounds(min, max);
        return this;
    }

    public PolicyConfigBuilder operatorBounds(String id, int min, int max) {
        operatorBounds.put(id, new ParallelismBounds(min, max));
        return this;
    }

    public PolicyConfigBuilder alignToKeyGroups(double maxIncrease) {
        align = true;
        alignMax = maxIncrease;
        return this;
    }

    public PolicyConfigBuilder deadBand(double tolerance) {
        deadBand = tolerance;
        return this;
    }

    public PolicyConfigBuilder scaleDownDelay(Duration d) {
        scaleDownDelay = d;
        return this;
    }

    public PolicyConfigBuilder warmUp(Duration d) {
        warmUp = d;
        return this;
    }

    public PolicyConfigBuilder maxMetricsAge(Duration d) {
        maxAge = d;
        return this;
    }

    public PolicyConfigBuilder sourceTargetRate(String sourceId, double recordsPerSecond) {
        targets.put(sourceId, recordsPerSecond);
        return this;
    }

    public PolicyConfigBuilder skewCorrection(boolean enabled) {
        skew = enabled;
        return this;
    }

    /**
     * Measurement noise tolerated before a running operator counts as unable to sustain its target
     * (see {@link PolicyConfig#noiseTolerance()}). Default 0, as in the paper's DS2: an operator
     * needing 10.01 instances at 10 is rescaled to 11.
     */
    public PolicyConfigBuilder noiseTolerance(double fraction) {
        noise = fraction;
        return this;
    }

    public PolicyConfigBuilder downtimePercentile(double fraction) {
        percentile = fraction;
        return this;
    }

    public PolicyConfigBuilder maxRescalesPerHour(int count) {
        budget = count;
        return this;
    }

    public PolicyConfigBuilder scaleDownInterval(Duration d) {
        scaleDownInterval = d;
        return this;
    }

    public PolicyConfigBuilder targetMaxLag(Duration d) {
        maxLag = d;
        return this;
    }

    public PolicyConfigBuilder savingsHorizon(Duration d) {
        horizon = d;
        return this;
    }

    public PolicyConfigBuilder confirmNeed(boolean enabled) {
        confirm = enabled;
        return this;
    }

    public PolicyConfigBuilder loadChange(double fraction) {
        loadChange = fraction;
        return this;
    }

    public PolicyConfigBuilder learnScalability(boolean enabled) {
        learn = enabled;
        return this;
    }

    public PolicyConfigBuilder scalabilityPrior(double exponent) {
        prior = exponent;
        return this;
    }

    public PolicyConfigBuilder predictive(boolean enabled) {
        predictive = enabled;
        return this;
    }

    /**
     * Period of the sources' rate for the predictive mode's forecast; {@link Duration#ZERO} detects
     * it.
     */
    public PolicyConfigBuilder forecastPeriod(Duration d) {
        forecastPeriod = d;
        return this;
    }

    /** Whether true rates are taken over useful time less the wait for a core. */
    public PolicyConfigBuilder coreWaitCorrection(boolean enabled) {
        coreWait = enabled;
        return this;
    }

    public PolicyConfig build() {
        return new PolicyConfig(
                new PolicyConfig.Targets(utilization, targets, catchUp, maxLag, noise),
                new PolicyConfig.Bounds(jobBounds, operatorBounds, align, alignMax),
                new PolicyConfig.ScaleDown(
                        deadBand, scaleDownDelay, scaleDownInterval, horizon, loadChange),
                new PolicyConfig.RescaleCost(rescale, percentile, budget),
                new PolicyConfig.Guards(warmUp, maxAge, confirm, coreWait),
                new PolicyConfig.Model(skew, learn, prior, predictive, forecastPeriod));
    }
}
