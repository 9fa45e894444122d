package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;

/**
 * How far predictive mode looks ahead. {@code next}: until the next decision can take effect (one
 * window plus the downtime). {@code check}: with a period, the running check looks further, until a
 * rescale called now has also drained its own downtime (the planned share of the catch-up time), so
 * that a scale-up ahead of a rise drains that backlog while the rate is still below the new
 * capacity's top. {@code plan}: with a period, a plan stands at least the scale-down delay. {@code
 * settle}: a trim skips the delay only where the forecast does not rise within the savings horizon,
 * over which it must pay for itself.
 */
record ForecastHorizons(Duration next, Duration check, Duration plan, Duration settle) {

    static ForecastHorizons of(MetricsWindow window, RescaleCost cost, PolicyConfig config) {
        Duration next = window.length().plus(cost.downtime());
        Duration drain =
                Duration.ofNanos(
                        Math.round(config.catchUpSeconds() * SourceTarget.PLAN_SHARE * 1e9));
        Duration plan = next.plus(config.scaleDownDelay());
        Duration settle =
                config.savingsHorizon().compareTo(plan) > 0 ? config.savingsHorizon() : plan;
        return new ForecastHorizons(next, next.plus(drain), plan, settle);
    }
}
