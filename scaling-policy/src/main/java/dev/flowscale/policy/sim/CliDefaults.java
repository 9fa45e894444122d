package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;

/**
 * The settings of {@code flowscale run} when no option is given, copied from
 * {@code cli/src/main/java/dev/flowscale/cli/FlowscaleMain.java#settings(CliOptions)} (the
 * simulator cannot depend on the CLI module). Issue 12 replaces the copies by one shared
 * defaults table; until then, keep these equal to the CLI's.
 */
public final class CliDefaults {

    /** {@code --policy-interval 10s}; the window defaults to the interval. */
    public static final Duration POLICY_INTERVAL = Duration.ofSeconds(10);
    /** {@code --catch-up 60s}. */
    public static final Duration CATCH_UP = Duration.ofSeconds(60);

    private CliDefaults() {
    }

    /** The CLI's policy: {@code --min/--max-parallelism 1/32}, scale-down delay 20 s, rounding 0.02, ... */
    public static PolicyConfig policy() {
        return PolicyConfig.builder()
                .targetUtilization(1.0)
                .jobBounds(1, 32)
                .catchUpDuration(CATCH_UP)
                .scaleDownDelay(Duration.ofSeconds(20))
                .deadBand(0)
                .roundingTolerance(0.02)
                .expectedRescaleDuration(Duration.ofSeconds(2))
                .warmUp(Duration.ofSeconds(3))
                .maxMetricsAge(POLICY_INTERVAL.multipliedBy(3))
                .build();
    }

    /** A simulation at the CLI's interval and window, with the given rescale downtime. */
    public static SimulationSettings settings(Duration rescaleDowntime) {
        return SimulationSettings.defaults().withPolicyInterval(POLICY_INTERVAL).withRescaleDowntime(rescaleDowntime);
    }

    /** Issue 12's settling bar at the CLI's catch-up time and interval. */
    public static SettlingCriteria criteria() {
        return SettlingCriteria.of(CATCH_UP, POLICY_INTERVAL);
    }
}
