package dev.flowscale.engine.api;

import dev.flowscale.common.DurationText;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A per-record cost added to an operator so that parallelism matters even on a small machine:
 * {@linkplain #cpu a fixed amount of CPU work}, as a real operator does, or a {@linkplain #blocking
 * blocking wait} that emulates a call to a remote service. On a loaded machine both take longer in
 * wall-clock time by the time their thread waits for a core, as real work does. The spec is
 * immutable and shared; each operator instance takes its own {@link CostMeter} from {@link
 * #meter()} and charges it per record.
 */
public final class SyntheticCost {

    /** The forms {@link #parse} accepts, quoted in its error messages. */
    public static final String VALID_FORMS =
            "'none', 'cpu:DURATION', 'blocking:DURATION' or 'sleep:DURATION' with DURATION "
                    + DurationText.FORM;

    private static final Duration MAX_PER_RECORD = Duration.ofMinutes(1);
    private static final SyntheticCost NONE = new SyntheticCost(Kind.NONE, Duration.ZERO);
    private static final LongSupplier UNKNOWN_RUN_DELAY = () -> -1;

    private enum Kind {
        NONE,
        CPU,
        BLOCKING
    }

    private final Kind kind;
    private final Duration perRecord;

    private SyntheticCost(Kind kind, Duration perRecord) {
        this.kind = kind;
        this.perRecord = perRecord;
    }

    /** No cost; the runtime skips charging. */
    public static SyntheticCost none() {
        return NONE;
    }

    /**
     * Busy work: after each record, spin until the thread has used {@code perRecord} of CPU time. A
     * thread waiting for a core uses none, so on a loaded machine the record takes longer in
     * wall-clock time while the work stays the same.
     */
    public static SyntheticCost cpu(Duration perRecord) {
        return new SyntheticCost(Kind.CPU, checkPerRecord(perRecord));
    }

    /**
     * A blocking wait: the thread parks so that under continuous load the instance handles exactly
     * one record per {@code perRecord}, as if it called a remote service.
     */
    public static SyntheticCost blocking(Duration perRecord) {
        return new SyntheticCost(Kind.BLOCKING, checkPerRecord(perRecord));
    }

    /**
     * Parses the command-line form: {@code none}, {@code cpu:200us}, {@code blocking:1ms} or its
     * alias {@code sleep:1ms}; durations in flowscale's one grammar ({@link DurationText}: 500ns,
     * 0.5ms).
     *
     * @throws EngineException naming the valid forms
     */
    public static SyntheticCost parse(String spec) {
        String text = spec == null ? "" : spec.strip().toLowerCase(Locale.ROOT);
        if (text.equals("none")) {
            return NONE;
        }
        int colon = text.indexOf(':');
        String kind = colon < 0 ? text : text.substring(0, colon);
        switch (kind) {
            case "cpu":
                return cpu(duration(text.substring(colon + 1), spec));
            case "blocking":
            case "sleep":
                return blocking(duration(text.substring(colon + 1), spec));
            default:
                throw new EngineException(
                        "cost '" + spec + "' is not a valid cost; use " + VALID_FORMS);
        }
    }

    /** Whether this is {@link #none()}. */
    public boolean isNone() {
        return kind == Kind.NONE;
    }

    /** The cost of one record; zero for {@link #none()}. */
    public Duration perRecord() {
        return perRecord;
    }

    /**
     * A new meter for one operator instance; use it from that instance's thread only. Where the
     * thread's wait for a core is not known, a blocking cost catches up every late wake-up.
     */
    public CostMeter meter() {
        return meter(false, UNKNOWN_RUN_DELAY);
    }

    /**
     * A new meter for one operator instance that shares its thread with other operators (a chain):
     * a blocking cost then catches up only its own late wake-ups, not the time the others took
     * between two of its records.
     */
    public CostMeter meterOnSharedThread() {
        return meter(true, UNKNOWN_RUN_DELAY);
    }

    /**
     * A new meter for one operator instance, told how long the calling thread has waited for a core
     * so far ({@code runDelay}: nanoseconds, negative where not known; read on the meter's thread).
     * A blocking cost does not catch up that wait, as a thread that called a remote service would
     * not: its wall-clock useful time grows by the wait, which the policy's core-wait correction
     * takes off again. {@code sharedThread} as in {@link #meterOnSharedThread()}.
     */
    public CostMeter meter(boolean sharedThread, LongSupplier runDelay) {
        long nanos = perRecord.toNanos();
        switch (kind) {
            case CPU:
                return new CpuCostMeter(nanos, CpuCostMeter.threadCpuClock());
            case BLOCKING:
                return new BlockingCostMeter(nanos, sharedThread, runDelay);
            default:
                return records -> {};
        }
    }

    /** Charges an operator instance for the records it handled. Not thread-safe. */
    @FunctionalInterface
    public interface CostMeter {
        /** Charges one record; call it once after each record. */
        default void charge() {
            charge(1);
        }

        /** Charges {@code records} records at once (a batch). */
        void charge(int records);

        /**
         * The instance waited (for input, or for room downstream): the next record starts a new
         * busy period, with no catch-up for time lost before the wait.
         */
        default void idle() {}
    }

    private static Duration checkPerRecord(Duration perRecord) {
        if (perRecord == null
                || perRecord.isNegative()
                || perRecord.isZero()
                || perRecord.compareTo(MAX_PER_RECORD) > 0) {
            throw new EngineException(
                    "cost perRecord must be > 0 and at most 1 minute but was "
                            + perRecord
                            + "; use SyntheticCost.none() (or 'none') for no cost");
        }
        return perRecord;
    }

    private static Duration duration(String text, String spec) {
        return DurationText.parse(
                "cost",
                text,
                message ->
                        new EngineException(
                                "cost '" + spec + "' has no valid duration; use " + VALID_FORMS));
    }

    /** Like {@code "none"}, {@code "cpu 200us/record"} or {@code "blocking 1ms/record"}. */
    @Override
    public String toString() {
        return isNone()
                ? "none"
                : kind.name().toLowerCase(Locale.ROOT) + " " + format(perRecord) + "/record";
    }

    private static String format(Duration d) {
        long nanos = d.toNanos();
        String[] units = {"s", "ms", "us"};
        long[] sizes = {1_000_000_000L, 1_000_000L, 1_000L};
        for (int i = 0; i < units.length; i++) {
            if (nanos % sizes[i] == 0) {
                return nanos / sizes[i] + units[i];
            }
        }
        return nanos + "ns";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SyntheticCost
                && ((SyntheticCost) o).kind == kind
                && ((SyntheticCost) o).perRecord.equals(perRecord);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, perRecord);
    }
}
