package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;

/**
 * Settings of the autoscaler loop.
 *
 * @param mode apply decisions ({@link Mode#AUTO}) or only publish them
 * @param policyInterval time between two decisions
 * @param historySize decisions and rescales kept; must cover the scale-down delay
 */
public record AutoscalerConfig(Mode mode, Duration policyInterval, int historySize) {

    public AutoscalerConfig {
        Checks.notNull(mode, "autoscaler mode");
        Checks.notNegative(policyInterval, "autoscaler policyInterval");
        if (policyInterval.isZero()) {
            throw new PolicyException("autoscaler policyInterval is zero; use e.g. PT10S");
        }
        Checks.positive(historySize, "autoscaler historySize");
    }

    public static AutoscalerConfig of(Mode mode, Duration policyInterval) {
        return new AutoscalerConfig(mode, policyInterval, 1000);
    }
}
