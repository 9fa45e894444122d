package dev.flowscale.policy.settings;

import java.util.Locale;
import java.util.Optional;

/**
 * Every autoscaler setting, once: the one table that the command line, the StreamJob custom
 * resource, the Helm values and the docs all follow. A setting's {@link #field()} is its CRD field
 * and Helm key, {@link #option()} its command-line option. It has two defaults, one per {@link
 * Profile}: a cluster's (the operator, the CRD, Helm), where a rescale restarts a pod, and a local
 * run's ({@code flowscale run}), where the engine rescales in this process in seconds.
 */
public enum Setting {
    MODE(
            Kind.MODE,
            "recommend",
            0,
            0,
            "auto: decide and rescale; recommend: decide and report only"),
    POLICY_INTERVAL(Kind.DURATION, "30s", 1, 0, "How often the policy decides"),
    WARM_UP(Kind.DURATION, "60s", 0, 0, "Metrics dropped after a start or a rescale"),
    TARGET_UTILIZATION(
            Kind.FRACTION,
            "1.0",
            0.1,
            1,
            "Share of an instance's capacity the policy plans to use, 0.1 to 1"),
    MIN_PARALLELISM(Kind.COUNT, "1", 1, 0, "Lowest parallelism of any operator"),
    MAX_PARALLELISM(
            Kind.COUNT,
            "32",
            1,
            0,
            "Highest parallelism of any operator, at most the operator's key groups"),
    CATCH_UP(
            Kind.DURATION,
            "5m",
            0,
            0,
            "Time in which a backlog must drain, including what a rescale's own downtime adds; 0s disables catch-up"),
    EXPECTED_DOWNTIME(
            Kind.DURATION,
            "30s",
            0,
            0,
            "Rescale downtime assumed until one has been measured on the job"),
    DOWNTIME_PERCENTILE(
            Kind.FRACTION,
            "0.9",
            0.01,
            1,
            "Percentile of the measured rescale downtimes (per path) that decisions plan for"),
    SCALE_DOWN_DELAY(
            Kind.DURATION,
            "5m",
            0,
            0,
            "How long a lower parallelism must be recommended, at one load, before scaling down"),
    SCALE_DOWN_INTERVAL(Kind.DURATION, "0s", 0, 0, "Least time between two scale-downs"),
    MAX_RESCALES_PER_HOUR(
            Kind.COUNT,
            "6",
            0,
            0,
            "Rescale budget: at most this many rescales start in any hour; 0 = no budget"),
    TARGET_MAX_LAG(
            Kind.DURATION,
            "0s",
            0,
            0,
            "Backlog, in seconds of the source's rate, that may stand without a rescale"),
    SAVINGS_HORIZON(
            Kind.DURATION,
            "1h",
            0,
            0,
            "A scale-down must save more instance-time over this horizon than its downtime costs"),
    LOAD_CHANGE(
            Kind.FRACTION,
            "0.1",
            0.01,
            0.99,
            "Relative change of the sources' rate that counts as a load change"),
    LEARN_SCALABILITY(
            Kind.FLAG,
            "true",
            0,
            0,
            "Size operators with capacity curves fitted to the parallelisms the job has run at"),
    SCALABILITY_PRIOR(
            Kind.FRACTION,
            "0.8",
            0.5,
            1,
            "Exponent a of capacity ~ p^a assumed above the only parallelism an operator was measured at"),
    CONFIRM_NEED(
            Kind.FLAG,
            "true",
            0,
            0,
            "A needed rescale waits for a second window in a row, so it is sized wholly at the new load"),
    PREDICTIVE(
            Kind.FLAG,
            "false",
            0,
            0,
            "Scale ahead of a forecast of each source's rate (trend and period) fitted to its recent history"),
    FORECAST_PERIOD(
            Kind.DURATION,
            "0s",
            0,
            0,
            "Period of the sources' rate the predictive forecast fits, e.g. 24h; 0s detects it"),
    NOISE_TOLERANCE(
            Kind.FRACTION,
            "0.02",
            0,
            0.49,
            "Measurement noise tolerated before a running operator counts as short of its target"),
    DEAD_BAND(
            Kind.FRACTION,
            "0",
            0,
            1,
            "Relative change per operator tolerated without a scale-down"),
    SKEW_CORRECTION(
            Kind.FLAG,
            "true",
            0,
            0,
            "Size keyed operators for their hottest instance, from per-instance rates"),
    CORE_WAIT_CORRECTION(
            Kind.FLAG,
            "true",
            0,
            0,
            "Take true rates over useful time less the time operators waited for a core"),
    KEY_GROUP_ALIGNMENT(
            Kind.FLAG,
            "false",
            0,
            0,
            "Round parallelism up to a divisor of the key groups (at most +25 %)");

    /** Where the autoscaler runs, and so which default applies. */
    public enum Profile {
        /** The operator: a rescale restarts or resizes a pod (tens of seconds). */
        CLUSTER,
        /** {@code flowscale run}: the engine rescales inside this process (seconds). */
        LOCAL,
        /**
         * {@code flowscale attach --flink}: a rescale restarts the Flink job from its latest
         * checkpoint (seconds of downtime, plus the input since that checkpoint re-read). The
         * cluster's defaults, which a StreamJob targeting Flink gets too, except mode auto: the
         * command is run to autoscale.
         */
        FLINK
    }

    /** The type of a setting's value and so its grammar. */
    public enum Kind {
        MODE,
        DURATION,
        FRACTION,
        COUNT,
        FLAG
    }

    private final Kind kind;
    private final String defaultText;
    private final double min;
    private final double max;
    private final String description;

    Setting(Kind kind, String defaultText, double min, double max, String description) {
        this.kind = kind;
        this.defaultText = defaultText;
        this.min = min;
        this.max = max;
        this.description = description;
    }

    /** The CRD field, Helm key and JSON name: camelCase. */
    public String field() {
        String[] words = name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder sb = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            sb.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return sb.toString();
    }

    /** The command-line option, without its dashes: kebab-case. */
    public String option() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public Kind kind() {
        return kind;
    }

    /** The cluster default. */
    public String defaultText() {
        return defaultText;
    }

    /** The default in the given profile. */
    public String defaultText(Profile profile) {
        if (profile == Profile.FLINK) {
            return this == MODE ? "auto" : defaultText;
        }
        if (profile == Profile.LOCAL) {
            return switch (this) {
                case MODE -> "auto";
                case POLICY_INTERVAL -> "10s";
                case WARM_UP -> "3s";
                case CATCH_UP -> "60s";
                case EXPECTED_DOWNTIME -> "2s";
                case SCALE_DOWN_DELAY -> "20s";
                case MAX_RESCALES_PER_HOUR -> "30";
                default -> defaultText;
            };
        }
        return defaultText;
    }

    /** Lowest value of a number (for durations: lowest whole seconds; 1 means "above zero"). */
    public double min() {
        return min;
    }

    /** Highest value of a fraction; 0 for other kinds (no upper bound). */
    public double max() {
        return max;
    }

    public String description() {
        return description;
    }

    /** The setting found by its field or option name. */
    public static Optional<Setting> named(String name) {
        for (Setting s : values()) {
            if (s.field().equals(name) || s.option().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
