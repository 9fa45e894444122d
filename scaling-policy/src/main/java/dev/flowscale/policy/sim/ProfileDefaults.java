package dev.flowscale.policy.sim;

import dev.flowscale.common.DurationText;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The settings table's defaults in one {@link Setting.Profile} as a user gets them, for a job whose
 * rescales really take {@code downtime}: the cluster's (the operator's, mode auto) or the local
 * command's, where {@code --emulated-restart} adds to the local expected downtime what a rescale
 * takes beyond it (as {@code flowscale run} does). A {@code priorFactor} other than 1 configures
 * the expected downtime at that multiple of the real one, as a user who guessed it wrong would. The
 * upper bound is lifted to the operators' key groups, as in {@link TableDefaults}.
 */
public record ProfileDefaults(Setting.Profile profile, Duration downtime, double priorFactor) {

    public ProfileDefaults {
        if (profile == Setting.Profile.FLINK || !(priorFactor > 0)) {
            throw new PolicyException(
                    "profile defaults need the CLUSTER or LOCAL profile and a priorFactor above 0,"
                            + " got "
                            + profile
                            + " and "
                            + priorFactor);
        }
    }

    /** The resolved settings. */
    public SettingValues values() {
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        given.put(Setting.MODE, "auto");
        given.put(Setting.MAX_PARALLELISM, "128");
        if (priorFactor != 1) {
            given.put(
                    Setting.EXPECTED_DOWNTIME,
                    Math.max(1, Math.round(downtime.toMillis() * priorFactor)) + "ms");
        } else if (profile == Setting.Profile.LOCAL) {
            Duration local =
                    DurationText.parse(
                            "expected downtime",
                            Setting.EXPECTED_DOWNTIME.defaultText(profile),
                            PolicyException::new);
            Duration emulated = downtime.minus(local);
            given.put(
                    Setting.EXPECTED_DOWNTIME,
                    DurationText.format(emulated.isNegative() ? local : downtime));
        }
        return SettingValues.resolve(given, "", profile);
    }

    public PolicyConfig policy() {
        return values().policy();
    }

    /** A simulation at the profile's interval (and window), down for {@code downtime}. */
    public SimulationSettings settings() {
        return SimulationSettings.defaults()
                .withPolicyInterval(values().duration(Setting.POLICY_INTERVAL))
                .withRescaleDowntime(downtime);
    }

    /**
     * The settling bar at the profile's catch-up time, interval, warm-up and savings horizon, with
     * the reserve to drain one rescale of the real downtime, and the downtime the policy expects
     * before it has measured one.
     */
    public SettlingCriteria criteria() {
        SettingValues v = values();
        return SettlingCriteria.builder(
                        v.policy().catchUpDuration(), v.duration(Setting.POLICY_INTERVAL))
                .downtimeReserve(downtime)
                .savingsHorizon(v.duration(Setting.SAVINGS_HORIZON))
                .warmUp(v.duration(Setting.WARM_UP))
                .prior(v.policy().expectedRescaleDuration())
                .build();
    }

    @Override
    public String toString() {
        return profile.name().toLowerCase(Locale.ROOT)
                + " at "
                + downtime.toSeconds()
                + " s"
                + (priorFactor == 1 ? "" : ", prior ×" + priorFactor);
    }
}
