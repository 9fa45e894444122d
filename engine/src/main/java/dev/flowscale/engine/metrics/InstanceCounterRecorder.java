package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * The DS2 counters of one operator instance. Its task thread is the only writer and updates it once
 * per batch or per change of phase, never per record. Every nanosecond of the instance's life is in
 * exactly one phase, so useful + waiting-for-input + backpressure = observed time. Readers on other
 * threads get a consistent {@link InstanceCounts} that includes the time spent so far in the
 * current phase. Writes are bracketed by a sequence number (a seqlock: odd while a write is under
 * way), so the writer never waits and pays no atomic instruction; a reader retries when the number
 * changed while it read. A keyed instance also counts its records per key group ({@link
 * KeyGroupCounter}); those counts are published at the end of each batch.
 */
public final class InstanceCounterRecorder {

    /** Where the instance's time goes. */
    public enum Phase {
        NOT_STARTED,
        USEFUL,
        WAIT_INPUT,
        BACKPRESSURE,
        FINISHED
    }

    private static final VarHandle PENDING_IN;
    private static final VarHandle PENDING_OUT;
    private static final VarHandle SEQUENCE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PENDING_IN =
                    lookup.findVarHandle(InstanceCounterRecorder.class, "pendingIn", long.class);
            PENDING_OUT =
                    lookup.findVarHandle(InstanceCounterRecorder.class, "pendingOut", long.class);
            SEQUENCE = lookup.findVarHandle(InstanceCounterRecorder.class, "sequence", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String operatorId;
    private final int instance;
    private final boolean source;

    /** Records handled in the batch under way; published per record with a cheap release store. */
    private long pendingIn;

    private long pendingOut;

    /** Even when the counters are consistent, odd while the task thread changes them. */
    private long sequence;

    private long startNanos;
    private long recordsIn;
    private long recordsOut;
    private long usefulNanos;
    private long waitInputNanos;
    private long backpressureNanos;

    /** Records a source owes as its reader reports them; null while the reader cannot tell. */
    private Long backlog;

    private Phase phase = Phase.NOT_STARTED;

    /** The reader's backlog, read at each snapshot; null: the last value the task wrote stands. */
    private volatile Supplier<Long> liveBacklog;

    private long phaseSince;

    /**
     * The part of the thread's useful time that is this instance's: 1 for an instance on a thread
     * of its own; an operator chained with others gets its estimated share, the rest of the
     * thread's useful time counts as its waiting for input (it waits while the others work).
     */
    private double usefulShare = 1.0;

    /** First key group the instance owns; meaningful only with {@link #keyGroupCounter}. */
    private final int keyGroupFirst;

    /** Null for an instance that is not keyed. */
    private final KeyGroupCounter keyGroupCounter;

    /**
     * Published records per key group of the range, written inside a write like the other counters.
     */
    private final long[] keyGroupRecords;

    public InstanceCounterRecorder(String operatorId, int instance, boolean source) {
        this(operatorId, instance, source, 0, 0);
    }

    /**
     * The counters of an instance that owns {@code keyGroupCount} key groups from {@code
     * keyGroupFirst} on (a keyed operator's instance); 0 key groups: not keyed.
     */
    public InstanceCounterRecorder(
            String operatorId, int instance, boolean source, int keyGroupFirst, int keyGroupCount) {
        this.operatorId = operatorId;
        this.instance = instance;
        this.source = source;
        this.keyGroupFirst = keyGroupFirst;
        this.keyGroupCounter = keyGroupCount > 0 ? new KeyGroupCounter(keyGroupCount) : null;
        this.keyGroupRecords = new long[keyGroupCount];
        // A source owes an unknown number of records until its reader is open and tells.
        this.backlog = source ? null : 0L;
    }

    /** The per-key-group counter the task thread feeds; null when the instance is not keyed. */
    public KeyGroupCounter keyGroupCounter() {
        return keyGroupCounter;
    }

    /**
     * Publishes how many records of the current batch have been processed so far, so that a
     * snapshot taken in the middle of a long batch counts them with the time they took.
     */
    public void pendingIn(long records) {
        PENDING_IN.setRelease(this, records);
    }

    /** Publishes how many records have been emitted since the last {@link #addRecords}. */
    public void pendingOut(long records) {
        PENDING_OUT.setRelease(this, records);
    }

    public void start(long now) {
        beginWrite();
        startNanos = now;
        phase = Phase.USEFUL;
        phaseSince = now;
        endWrite();
    }

    /** Closes the current phase at {@code now} and opens {@code next}. */
    public void enter(Phase next, long now) {
        beginWrite();
        account(now);
        phase = next;
        phaseSince = now;
        endWrite();
    }

    /**
     * Adds a finished batch's records (and its per-key-group counts) and clears the pending counts,
     * atomically for readers.
     */
    public void addRecords(long in, long out) {
        beginWrite();
        recordsIn += in;
        recordsOut += out;
        if (keyGroupCounter != null) {
            keyGroupCounter.drainInto(keyGroupRecords);
        }
        PENDING_IN.setRelease(this, 0L);
        PENDING_OUT.setRelease(this, 0L);
        endWrite();
    }

    /**
     * Sets the instance's share of its thread's useful time from {@code now} on (see {@link
     * #usefulShare}); time before {@code now} keeps the share it had.
     */
    public void usefulShare(double share, long now) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException(
                    "useful share of "
                            + operatorId
                            + "/"
                            + instance
                            + " must be in [0, 1]: "
                            + share);
        }
        beginWrite();
        if (phase != Phase.NOT_STARTED) {
            account(now);
            phaseSince = now;
        }
        usefulShare = share;
        endWrite();
    }

    /**
     * The records a source owes, or null while it cannot tell.
     *
     * @throws IllegalArgumentException if {@code records} is negative
     */
    public void backlog(Long records) {
        if (records != null && records < 0) {
            throw new IllegalArgumentException(
                    "source "
                            + operatorId
                            + "/"
                            + instance
                            + " reports a backlog of "
                            + records
                            + ": SourceReader.backlog() must return the records owed (0 or more),"
                            + " or null while the reader cannot tell");
        }
        beginWrite();
        backlog = records;
        endWrite();
    }

    /** Single writer: the odd number is visible before any of the changes that follow. */
    private void beginWrite() {
        SEQUENCE.setOpaque(this, sequence + 1);
        VarHandle.storeStoreFence();
    }

    /** The changes are visible before the even number that closes them. */
    private void endWrite() {
        SEQUENCE.setRelease(this, sequence + 1);
    }

    /**
     * A source's backlog read live at each snapshot, so it stays current while the source is
     * blocked.
     */
    public void liveBacklog(Supplier<Long> supplier) {
        this.liveBacklog = supplier;
    }

    public void finish(long now) {
        enter(Phase.FINISHED, now);
    }

    public Phase phase() {
        while (true) {
            long before = (long) SEQUENCE.getAcquire(this);
            Phase read = phase;
            if (unchanged(before)) {
                return read;
            }
            Thread.onSpinWait();
        }
    }

    /** A consistent copy of the counters as of {@code now} (a System.nanoTime value). */
    public InstanceCounts snapshot(long now) {
        return snapshot(now, null, null);
    }

    /**
     * {@link #snapshot(long)} with the instance's thread times, which the task thread does not
     * measure: its CPU time and its wait for a core, in nanoseconds, each null where not known.
     */
    public InstanceCounts snapshot(long now, Long cpuNanos, Long coreWaitNanos) {
        Supplier<Long> live = liveBacklog;
        Long liveOwed = live == null ? null : live.get();
        while (true) {
            long before = (long) SEQUENCE.getAcquire(this);
            Long owed = live == null ? backlog : known(liveOwed);
            InstanceCounts read = read(now, owed, cpuNanos, coreWaitNanos);
            if (unchanged(before)) {
                return read;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Whether no write began or ended since {@code before} was read (and none was under way then).
     */
    private boolean unchanged(long before) {
        VarHandle.loadLoadFence();
        return (before & 1) == 0 && before == (long) SEQUENCE.getOpaque(this);
    }

    /**
     * A live reading as the counter record holds it: a negative one (which fails the task when the
     * task thread reads it) is not known.
     */
    private static Long known(Long owed) {
        return owed == null || owed < 0 ? null : owed;
    }

    private InstanceCounts read(long now, Long owed, Long cpuNanos, Long coreWaitNanos) {
        Phase p = phase;
        long since = phaseSince;
        long open = p == Phase.NOT_STARTED || p == Phase.FINISHED ? 0 : Math.max(0, now - since);
        // The task thread may have booked a phase change at a clock reading later than the
        // reader's: the observed time then runs to that change, so that it still holds every
        // nanosecond booked useful, waiting or backpressured.
        long end = p == Phase.FINISHED ? since : Math.max(now, since);
        long openUseful = p == Phase.USEFUL ? mine(open) : 0;
        return new InstanceCounts(
                operatorId,
                instance,
                now,
                p == Phase.NOT_STARTED ? 0 : Math.max(0, end - startNanos),
                recordsIn + pending(source ? PENDING_OUT : PENDING_IN),
                recordsOut + pending(PENDING_OUT),
                usefulNanos + openUseful,
                waitInputNanos
                        + (p == Phase.WAIT_INPUT ? open : 0)
                        + (p == Phase.USEFUL ? open - openUseful : 0),
                backpressureNanos + (p == Phase.BACKPRESSURE ? open : 0),
                owed,
                p == Phase.FINISHED,
                keyGroupFirst,
                keyGroupRecords.clone(),
                cpuNanos,
                coreWaitNanos);
    }

    private long pending(VarHandle handle) {
        return (long) handle.getAcquire(this);
    }

    private void account(long now) {
        long elapsed = Math.max(0, now - phaseSince);
        switch (phase) {
            case USEFUL -> {
                long mine = mine(elapsed);
                usefulNanos += mine;
                waitInputNanos += elapsed - mine;
            }
            case WAIT_INPUT -> waitInputNanos += elapsed;
            case BACKPRESSURE -> backpressureNanos += elapsed;
            default -> {}
        }
    }

    /** This instance's part of {@code nanos} of its thread's useful time. */
    private long mine(long nanos) {
        return usefulShare == 1.0 ? nanos : Math.round(nanos * usefulShare);
    }
}
