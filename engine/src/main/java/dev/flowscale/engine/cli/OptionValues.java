package dev.flowscale.engine.cli;

import dev.flowscale.common.DurationText;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.KeyGroups;
import java.time.Duration;
import java.util.function.Supplier;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The typed values of the command line, each a converter that checks its range: an option is one
 * annotated field naming its converter. A converter's error is the end of a sentence that {@link
 * CommandLines} begins with the option's name ("option --metrics-port " + "is 70000; ...").
 */
public final class OptionValues {
    /** The longest duration any option takes: a year, far beyond any run, far below an overflow. */
    public static final Duration MAX_DURATION = Duration.ofDays(365);

    /** The highest TCP port; 0 picks a free one. */
    public static final int MAX_PORT = 65_535;

    /** Below this a live view prints faster than anyone reads, and floods a log. */
    public static final Duration MIN_PRINT_INTERVAL = Duration.ofMillis(100);

    private OptionValues() {}

    /**
     * A duration in flowscale's one grammar ({@link DurationText}) from a least value to {@link
     * #MAX_DURATION}.
     */
    public abstract static class DurationRange implements ITypeConverter<Duration> {
        private static final java.util.regex.Pattern TOO_LONG =
                java.util.regex.Pattern.compile("[0-9]{10,}(\\.[0-9]+)?(ns|us|µs|ms|s|m|h)");

        private final Duration min;
        private final boolean aboveMin;

        protected DurationRange(Duration min, boolean aboveMin) {
            this.min = min;
            this.aboveMin = aboveMin;
        }

        @Override
        public Duration convert(String text) {
            Duration d;
            try {
                d =
                        DurationText.parse(
                                "", text, message -> new TypeConversionException(message.strip()));
            } catch (ArithmeticException e) { // more seconds than a long holds
                throw new TypeConversionException("is " + text.strip() + "; use " + range());
            } catch (TypeConversionException e) {
                // A number and a unit the grammar refuses only for its many digits: the limit is
                // what the user needs to hear.
                if (text != null && TOO_LONG.matcher(text.strip()).matches()) {
                    throw new TypeConversionException("is " + text.strip() + "; use " + range());
                }
                throw e;
            }
            int below = d.compareTo(min);
            if (below < 0 || (aboveMin && below == 0) || d.compareTo(MAX_DURATION) > 0) {
                throw new TypeConversionException("is " + text.strip() + "; use " + range());
            }
            return d;
        }

        private String range() {
            String max = DurationText.format(MAX_DURATION);
            return aboveMin
                    ? "more than " + DurationText.format(min) + " and at most " + max
                    : DurationText.format(min) + " to " + max;
        }
    }

    /** From 0s to a year. */
    public static final class AnyDuration extends DurationRange {
        public AnyDuration() {
            super(Duration.ZERO, false);
        }
    }

    /** Above 0s, up to a year. */
    public static final class PositiveDuration extends DurationRange {
        public PositiveDuration() {
            super(Duration.ZERO, true);
        }
    }

    /** At least {@link #MIN_PRINT_INTERVAL}. */
    public static final class PrintInterval extends DurationRange {
        public PrintInterval() {
            super(MIN_PRINT_INTERVAL, false);
        }
    }

    /** A whole number in [min, max]. */
    public abstract static class WholeNumber implements ITypeConverter<Integer> {
        private final long min;
        private final long max;

        protected WholeNumber(long min, long max) {
            this.min = min;
            this.max = max;
        }

        @Override
        public Integer convert(String text) {
            long value;
            try {
                value = Long.parseLong(text.strip());
            } catch (NumberFormatException e) {
                throw new TypeConversionException(
                        "'" + text + "' is not a whole number; use one from " + min + " to " + max);
            }
            if (value < min || value > max) {
                throw new TypeConversionException(
                        "is " + value + "; use a whole number from " + min + " to " + max);
            }
            return (int) value;
        }
    }

    /** 1 or more. */
    public static final class Positive extends WholeNumber {
        public Positive() {
            super(1, Integer.MAX_VALUE);
        }
    }

    /** A TCP port, 0 (a free one) to {@link #MAX_PORT}. */
    public static final class Port extends WholeNumber {
        public Port() {
            super(0, MAX_PORT);
        }
    }

    /** A number of key groups: 1 to {@link KeyGroups#MAX_KEY_GROUPS}. */
    public static final class KeyGroupCount extends WholeNumber {
        public KeyGroupCount() {
            super(1, KeyGroups.MAX_KEY_GROUPS);
        }
    }

    /** 1 to 1000 (snapshots kept, failures tolerated). */
    public static final class UpToThousand extends WholeNumber {
        public UpToThousand() {
            super(1, 1000);
        }
    }

    /** Records per batch: 1 to 65536. */
    public static final class BatchSize extends WholeNumber {
        public BatchSize() {
            super(1, 65_536);
        }
    }

    /**
     * A source rate ({@link RateProfile#parse}); {@code max} (null) means as fast as the job can
     * go.
     */
    public static final class Rate implements ITypeConverter<RateProfile> {
        @Override
        public RateProfile convert(String spec) {
            return spec.strip().equals("max") ? null : parsed(spec, () -> RateProfile.parse(spec));
        }
    }

    /** A synthetic per-record cost ({@link SyntheticCost#parse}). */
    public static final class Cost implements ITypeConverter<SyntheticCost> {
        @Override
        public SyntheticCost convert(String spec) {
            return parsed(spec, () -> SyntheticCost.parse(spec));
        }
    }

    private static <T> T parsed(String spec, Supplier<T> parser) {
        try {
            return parser.get();
        } catch (EngineException e) {
            throw new TypeConversionException(spec + ": " + e.getMessage());
        }
    }
}
