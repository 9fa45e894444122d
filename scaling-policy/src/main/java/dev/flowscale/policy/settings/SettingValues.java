package dev.flowscale.policy.settings;

import dev.flowscale.common.DurationText;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.PolicyConfigBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Autoscaler settings resolved against the {@link Setting} table: each one given, else its default,
 * checked by its kind and range. The one assembly of the policy's and the loop's configuration,
 * used by the command line and the operator alike.
 */
public final class SettingValues {

    private final Map<Setting, String> texts;

    private SettingValues(Map<Setting, String> texts) {
        this.texts = texts;
    }

    /** The cluster defaults of the table. */
    public static SettingValues defaults() {
        return resolve(Map.of(), "");
    }

    /** The defaults of the table in a profile. */
    public static SettingValues defaults(Setting.Profile profile) {
        return resolve(Map.of(), "", profile);
    }

    /**
     * The given texts over the cluster defaults; see {@link #resolve(Map, String,
     * Setting.Profile)}.
     */
    public static SettingValues resolve(Map<Setting, String> given, String prefix) {
        return resolve(given, prefix, Setting.Profile.CLUSTER);
    }

    /**
     * The given texts over the profile's defaults.
     *
     * @param prefix how the caller names a field in errors, e.g. "spec.autoscaler." or "--"
     * @throws PolicyException naming every wrong field, its value and the accepted form
     */
    public static SettingValues resolve(
            Map<Setting, String> given, String prefix, Setting.Profile profile) {
        Map<Setting, String> texts = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            String text = given.get(s);
            texts.put(s, text == null ? s.defaultText(profile) : text.trim());
        }
        List<String> problems = new ArrayList<>();
        for (Setting s : Setting.values()) {
            check(s, texts.get(s), prefix).ifPresent(problems::add);
        }
        SettingValues values = new SettingValues(texts);
        if (problems.isEmpty()
                && values.count(Setting.MIN_PARALLELISM) > values.count(Setting.MAX_PARALLELISM)) {
            problems.add(
                    name(Setting.MIN_PARALLELISM, prefix)
                            + " "
                            + values.count(Setting.MIN_PARALLELISM)
                            + " is above "
                            + name(Setting.MAX_PARALLELISM, prefix)
                            + " "
                            + values.count(Setting.MAX_PARALLELISM)
                            + "; lower it or raise the maximum");
        }
        if (!problems.isEmpty()) {
            throw new PolicyException(String.join("; ", problems));
        }
        if (profile == Setting.Profile.LOCAL && !given.containsKey(Setting.CATCH_UP)) {
            texts.put(Setting.CATCH_UP, DurationText.format(localCatchUp(values)));
        }
        return values;
    }

    /**
     * How many expected downtimes the catch-up time spans by default: the cluster's 5 minutes for
     * its 30 s prior. A trim keeps the spare to drain its own downtime within the catch-up time, so
     * with a fixed catch-up a longer downtime (the local command's {@code --emulated-restart})
     * would make every trim keep 1.5 to 2 times the need and almost never pay.
     */
    static final int CATCH_UP_DOWNTIMES = 10;

    /**
     * The local catch-up time when none is given: the local default, or {@value
     * #CATCH_UP_DOWNTIMES} expected downtimes where that is longer.
     */
    private static Duration localCatchUp(SettingValues values) {
        Duration local = values.duration(Setting.CATCH_UP);
        Duration scaled =
                values.duration(Setting.EXPECTED_DOWNTIME).multipliedBy(CATCH_UP_DOWNTIMES);
        return scaled.compareTo(local) > 0 ? scaled : local;
    }

    private static Optional<String> check(Setting s, String text, String prefix) {
        try {
            switch (s.kind()) {
                case MODE -> mode(text);
                case DURATION ->
                        atLeast(
                                s,
                                DurationText.parse(name(s, prefix), text, PolicyException::new)
                                                .toMillis()
                                        / 1000.0,
                                text);
                case FRACTION -> fraction(s, Double.parseDouble(text), text);
                case COUNT -> atLeast(s, Integer.parseInt(text), text);
                case FLAG -> flag(text);
                default -> throw new IllegalStateException(s.kind().toString());
            }
            return Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.of(name(s, prefix) + " is '" + text + "': " + expected(s));
        } catch (PolicyException e) {
            return Optional.of(
                    e.getMessage().startsWith(name(s, prefix))
                            ? e.getMessage()
                            : name(s, prefix) + " is '" + text + "': " + e.getMessage());
        }
    }

    private static void atLeast(Setting s, double value, String text) {
        if (value < s.min()) {
            throw new PolicyException(expected(s));
        }
    }

    private static void fraction(Setting s, double value, String text) {
        if (!(value >= s.min() && value <= s.max())) {
            throw new PolicyException(expected(s));
        }
    }

    private static String expected(Setting s) {
        return switch (s.kind()) {
            case MODE -> "use auto, recommend or off";
            case DURATION ->
                    s.min() > 0
                            ? "use a duration above zero, e.g. 30s"
                            : "use a duration such as 30s or 0s";
            case FRACTION -> "use a number from " + s.min() + " to " + s.max();
            case COUNT -> "use a whole number of at least " + (int) s.min();
            case FLAG -> "use true or false";
        };
    }

    private static String name(Setting s, String prefix) {
        return prefix.endsWith("--") ? prefix + s.option() : prefix + s.field();
    }

    private static String mode(String text) {
        String m = text.toLowerCase(Locale.ROOT);
        if (!m.equals("auto") && !m.equals("recommend") && !m.equals("off")) {
            throw new PolicyException("use auto, recommend or off");
        }
        return m;
    }

    private static boolean flag(String text) {
        if (!text.equals("true") && !text.equals("false")) {
            throw new PolicyException("use true or false");
        }
        return Boolean.parseBoolean(text);
    }

    public String text(Setting s) {
        return texts.get(s);
    }

    public Duration duration(Setting s) {
        return DurationText.parse(s.field(), texts.get(s), PolicyException::new);
    }

    public double fraction(Setting s) {
        return Double.parseDouble(texts.get(s));
    }

    public int count(Setting s) {
        return Integer.parseInt(texts.get(s));
    }

    public boolean flag(Setting s) {
        return Boolean.parseBoolean(texts.get(s));
    }

    /** False when the mode is off: no autoscaler runs. */
    public boolean enabled() {
        return !mode(texts.get(Setting.MODE)).equals("off");
    }

    public Mode mode() {
        return mode(texts.get(Setting.MODE)).equals("auto") ? Mode.AUTO : Mode.RECOMMEND;
    }

    public AutoscalerConfig autoscaler() {
        return AutoscalerConfig.of(mode(), duration(Setting.POLICY_INTERVAL));
    }

    /** The policy's configuration; metrics older than three policy intervals are stale. */
    public PolicyConfig policy() {
        PolicyConfigBuilder b =
                PolicyConfig.builder()
                        .targetUtilization(fraction(Setting.TARGET_UTILIZATION))
                        .jobBounds(count(Setting.MIN_PARALLELISM), count(Setting.MAX_PARALLELISM))
                        .catchUpDuration(duration(Setting.CATCH_UP))
                        .expectedRescaleDuration(duration(Setting.EXPECTED_DOWNTIME))
                        .downtimePercentile(fraction(Setting.DOWNTIME_PERCENTILE))
                        .scaleDownDelay(duration(Setting.SCALE_DOWN_DELAY))
                        .scaleDownInterval(duration(Setting.SCALE_DOWN_INTERVAL))
                        .maxRescalesPerHour(count(Setting.MAX_RESCALES_PER_HOUR))
                        .targetMaxLag(duration(Setting.TARGET_MAX_LAG))
                        .savingsHorizon(duration(Setting.SAVINGS_HORIZON))
                        .loadChange(fraction(Setting.LOAD_CHANGE))
                        .confirmNeed(flag(Setting.CONFIRM_NEED))
                        .predictive(flag(Setting.PREDICTIVE))
                        .forecastPeriod(duration(Setting.FORECAST_PERIOD))
                        .learnScalability(flag(Setting.LEARN_SCALABILITY))
                        .scalabilityPrior(fraction(Setting.SCALABILITY_PRIOR))
                        .noiseTolerance(fraction(Setting.NOISE_TOLERANCE))
                        .deadBand(fraction(Setting.DEAD_BAND))
                        .skewCorrection(flag(Setting.SKEW_CORRECTION))
                        .coreWaitCorrection(flag(Setting.CORE_WAIT_CORRECTION))
                        .warmUp(duration(Setting.WARM_UP))
                        .maxMetricsAge(duration(Setting.POLICY_INTERVAL).multipliedBy(3));
        return flag(Setting.KEY_GROUP_ALIGNMENT) ? b.alignToKeyGroups(0.25).build() : b.build();
    }
}
