package dev.flowscale.engine.api;

import dev.flowscale.common.DurationText;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * A per-record cost added to an operator so that parallelism matters even on a small machine:
 * {@linkplain #cpu busy work} that occupies a core, or a {@linkplain #blocking blocking wait} that
 * emulates a call to a remote service. The spec is immutable and shared; each operator instance
 * takes its own {@link CostMeter} from {@link #meter()} and charges it per record.
 */
public final class SyntheticCost {

    /** The forms {@link #parse} accepts, quoted in its error messages. */
    public static final String VALID_FORMS =
            "'none', 'cpu:DURATION', 'blocking:DURATION' or 'sleep:DURATION' with DURATION "
                    + DurationText.FORM;

    private static final Duration MAX_PER_RECORD = Duration.ofMinutes(1);
    private static final SyntheticCost NONE = new SyntheticCost(Kind.NONE, Duration.ZERO);

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

    /** Busy work: after each record, spin on the CPU for {@code perRecord}. */
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

    /** A new meter for one operator instance; use it from that instance's thread only. */
    public CostMeter meter() {
        return meter(false);
    }

    /**
     * A new meter for one operator instance that shares its thread with other operators (a chain):
     * a blocking cost then catches up only its own late wake-ups, not the time the others took
     * between two of its records.
     */
    public CostMeter meterOnSharedThread() {
        return meter(true);
    }

    private CostMeter meter(boolean sharedThread) {
        long nanos = perRecord.toNanos();
        switch (kind) {
            case CPU:
                return new CpuMeter(nanos);
            case BLOCKING:
                return new BlockingMeter(nanos, sharedThread);
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

    private static final class CpuMeter implements CostMeter {
        private final long nanosPerRecord;

        CpuMeter(long nanosPerRecord) {
            this.nanosPerRecord = nanosPerRecord;
        }

        @Override
        public void charge(int records) {
            long end = System.nanoTime() + nanosPerRecord * Math.max(0, records);
            while (System.nanoTime() - end < 0) {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Parks to a virtual deadline rather than for a fixed time: parkNanos overshoots, and carrying
     * the deadline over makes the overshoot of one record shorten the next wait, so the rate under
     * load is exactly 1/perRecord. After idling the deadline restarts from now, so no credit builds
     * up.
     */
    private static final class BlockingMeter implements CostMeter {
        private final long nanosPerRecord;
        private long next;
        private long doneAt;
        private boolean idle = true;

        /**
         * Running estimate of how late parkNanos wakes up; parking that much earlier lands on time.
         */
        private long lateness;

        private final boolean sharedThread;

        BlockingMeter(long nanosPerRecord, boolean sharedThread) {
            this.nanosPerRecord = nanosPerRecord;
            this.sharedThread = sharedThread;
        }

        /**
         * Within a busy period the deadline only moves forward by the cost, so a late wake-up
         * (parkNanos overshoot, or a CPU that was busy with other threads) shortens the next waits:
         * the instance handles exactly one record per {@code perRecord} while it is busy.
         */
        @Override
        public void charge(int records) {
            long now = System.nanoTime();
            // On a shared thread, time between two charges went to other operators: it moves the
            // deadline on, so only this meter's own late wake-ups are caught up.
            long base = idle ? now : sharedThread ? next + Math.max(0, now - doneAt) : next;
            next = base + nanosPerRecord * Math.max(0, records);
            idle = false;
            long wakeAt = next - lateness;
            boolean parked = false;
            // An interrupt means the task is being cancelled: stop waiting, keep the flag set.
            while ((now = System.nanoTime()) - wakeAt < 0
                    && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(wakeAt - now);
                parked = true;
            }
            if (parked) {
                lateness = Math.max(0, Math.min(nanosPerRecord / 2, lateness + (now - next) / 8));
            }
            doneAt = now;
        }

        @Override
        public void idle() {
            idle = true;
        }
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
