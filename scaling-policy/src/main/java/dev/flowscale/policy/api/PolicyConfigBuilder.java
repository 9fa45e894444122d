package dev.flowscale.policy.api;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Mutable builder of {@link PolicyConfig}, one setter per setting, starting from {@link
 * PolicyConfig#exactDs2()}.
 */
public final class PolicyConfigBuilder {
    Duration catchUp = Duration.ZERO;
    Duration rescale = Duration.ofSeconds(30);
    double utilization = 1.0;
    ParallelismBounds jobBounds = ParallelismBounds.UNBOUNDED;
    final Map<String, ParallelismBounds> operatorBounds = new HashMap<>();
    boolean align;
    double alignMax = 0.25;
    double deadBand;
    Duration scaleDownDelay = Duration.ZERO;
    Duration warmUp = Duration.ZERO;
    Duration maxAge = Duration.ofMinutes(5);
    final Map<String, Double> targets = new HashMap<>();
    boolean skew;
    // the paper's DS2 rounds every shortfall up: no tolerance
    double noise = 0;
    double percentile = 0.9;
    int budget;
    Duration scaleDownInterval = Duration.ZERO;
    Duration maxLag = Duration.ZERO;
    Duration horizon = Duration.ofHours(1);
    boolean confirm;
    double loadChange = 0.1;
    boolean learn;
    double prior = 1;
    boolean predictive;
    Duration forecastPeriod = Duration.ZERO;
    boolean coreWait;

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
