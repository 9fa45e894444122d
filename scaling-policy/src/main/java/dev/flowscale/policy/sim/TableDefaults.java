package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import java.time.Duration;

/**
 * The autoscaler's defaults from the one settings table ({@link Setting}), as the command line and
 * the operator use them, for simulations and the settling suite.
 */
public final class TableDefaults {

    private static final SettingValues DEFAULTS = SettingValues.defaults();
    public static final Duration POLICY_INTERVAL = DEFAULTS.duration(Setting.POLICY_INTERVAL);
    public static final Duration CATCH_UP = DEFAULTS.duration(Setting.CATCH_UP);

    private TableDefaults() {}

    /**
     * The default policy, with the upper bound lifted to the operators' key groups: the default
     * bound of 32 protects one runner pod, and at the suite's peaks it would cap the catch-up
     * overshoot that drains a backlog in time.
     */
    public static PolicyConfig policy() {
        return DEFAULTS.policy().toBuilder()
                .jobBounds(DEFAULTS.count(Setting.MIN_PARALLELISM), 128)
                .build();
    }

    /** A simulation at the default interval and window, with the given rescale downtime. */
    public static SimulationSettings settings(Duration rescaleDowntime) {
        return SimulationSettings.defaults()
                .withPolicyInterval(POLICY_INTERVAL)
                .withRescaleDowntime(rescaleDowntime);
    }

    /**
     * Issue 12's settling bar at the default catch-up time and interval, where a minimal final
     * configuration can drain the backlog of one rescale of the given downtime in time, and one
     * above the minimum is accepted where the trim to it fails the table's cost test (savings
     * horizon).
     */
    public static SettlingCriteria criteria(Duration downtime) {
        return SettlingCriteria.builder(CATCH_UP, POLICY_INTERVAL)
                .downtimeReserve(downtime)
                .savingsHorizon(DEFAULTS.duration(Setting.SAVINGS_HORIZON))
                .build();
    }
}
