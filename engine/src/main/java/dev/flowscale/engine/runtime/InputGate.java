package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The input side of one operator instance: one bounded channel per upstream instance. A producer
 * that finds its channel full blocks (backpressure) and its time counts as such; the consumer takes
 * batches round robin over the channels. Locking is per batch, not per record.
 */
final class InputGate {
    /**
     * How often a blocked producer or a waiting consumer looks at the job's cancellation. Progress
     * never waits for it: every change a wait depends on signals the waiter.
     */
    private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final long checkNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<Batch>[] queues;
    private final Condition[] notFull;
    private final int capacity;

    /**
     * Records a channel may hold (buffer debloating); a batch always fits in an empty channel. It
     * starts small, because nothing is known of the consumer's speed yet, and the consumer raises
     * it within a fraction of a second once it has measured itself.
     */
    private volatile int recordLimit = INITIAL_RECORD_LIMIT;

    static final int INITIAL_RECORD_LIMIT = 32;
    private final int[] queuedRecords;
    private final Cancellation cancellation;
    private final boolean[] blocked;
    private int next;

    /** Batches queued in channels that are not blocked: what the consumer can take now. */
    private int available;

    private int lastChannel = -1;

    InputGate(int channels, int capacity, Cancellation cancellation) {
        this(channels, capacity, cancellation, CHECK_NANOS);
    }

    /** With the period of the cancellation check (a test sets it long, to catch a lost wake-up). */
    @SuppressWarnings("unchecked")
    InputGate(int channels, int capacity, Cancellation cancellation, long checkNanos) {
        this.queues = new ArrayDeque[channels];
        this.notFull = new Condition[channels];
        this.blocked = new boolean[channels];
        this.queuedRecords = new int[channels];
        for (int i = 0; i < channels; i++) {
            queues[i] = new ArrayDeque<>(capacity + 1);
            notFull[i] = lock.newCondition();
        }
        this.capacity = capacity;
        this.cancellation = cancellation;
        this.checkNanos = checkNanos;
    }

    int channels() {
        return queues.length;
    }

    /**
     * Puts a batch, blocking while the channel is full; events never block. The producer's phase
     * clock switches to backpressure and back outside the lock, so the consumer never waits for the
     * lock while the producer reads the clock and writes its counters.
     */
    void put(int channel, Batch batch, PhaseClock producer) throws InterruptedException {
        if (offer(channel, batch)) {
            return;
        }
        Phase before = producer.current();
        producer.enter(Phase.BACKPRESSURE);
        try {
            lock.lockInterruptibly();
            try {
                while (full(channel, batch.size)) {
                    cancellation.check();
                    notFull[channel].awaitNanos(checkNanos);
                }
                enqueue(channel, batch);
            } finally {
                lock.unlock();
            }
        } finally {
            producer.enter(before);
        }
    }

    /** Queues the batch unless it is data and the channel is full; returns whether it did. */
    private boolean offer(int channel, Batch batch) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (batch.isData() && full(channel, batch.size)) {
                return false;
            }
            enqueue(channel, batch);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void enqueue(int channel, Batch batch) {
        queues[channel].addLast(batch);
        queuedRecords[channel] += batch.size;
        if (!blocked[channel] && available++ == 0) {
            notEmpty.signal();
        }
    }

    private boolean full(int channel, int records) {
        return queues[channel].size() >= capacity
                || queuedRecords[channel] > 0 && queuedRecords[channel] + records > recordLimit;
    }

    /**
     * Limits how many records each channel may hold so that in-flight data stays a short time of
     * the consumer's work: checkpoint barriers (and a rescale's savepoint) then pass quickly even
     * under backpressure. Producers also size their batches by it.
     */
    void limitRecords(int perChannel) {
        recordLimit = Math.max(1, perChannel);
        lock.lock();
        try {
            for (Condition condition : notFull) {
                condition.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    int recordLimit() {
        return recordLimit;
    }

    /** The next batch, or null if none is queued now. */
    Batch poll() {
        lock.lock();
        try {
            return available == 0 ? null : dequeue();
        } finally {
            lock.unlock();
        }
    }

    /** The next batch, waiting up to {@code timeoutNanos}; null on timeout. */
    Batch poll(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        lock.lockInterruptibly();
        try {
            while (available == 0) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return null;
                }
                cancellation.check();
                notEmpty.awaitNanos(Math.min(remaining, checkNanos));
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    /** The next batch, waiting as long as it takes (checking for cancellation). */
    Batch take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (available == 0) {
                cancellation.check();
                notEmpty.awaitNanos(checkNanos);
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    /** Batches and events queued now, blocked channels included. */
    int queuedBatches() {
        lock.lock();
        try {
            int queued = 0;
            for (ArrayDeque<Batch> queue : queues) {
                queued += queue.size();
            }
            return queued;
        } finally {
            lock.unlock();
        }
    }

    /** The channel of the batch the last poll or take returned. */
    int lastChannel() {
        return lastChannel;
    }

    /**
     * Holds a channel back (it delivered a checkpoint barrier the other channels have not): its
     * batches stay queued, and once it is full its producer blocks, so memory stays bounded.
     */
    void block(int channel) {
        lock.lock();
        try {
            if (!blocked[channel]) {
                blocked[channel] = true;
                available -= queues[channel].size();
            }
        } finally {
            lock.unlock();
        }
    }

    void unblockAll() {
        lock.lock();
        try {
            for (int c = 0; c < queues.length; c++) {
                if (blocked[c]) {
                    blocked[c] = false;
                    available += queues[c].size();
                }
            }
            if (available > 0) {
                notEmpty.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Records in the queued batches now. */
    long queuedRecords() {
        lock.lock();
        try {
            long records = 0;
            for (ArrayDeque<Batch> queue : queues) {
                for (Batch batch : queue) {
                    records += batch.size;
                }
            }
            return records;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wakes a producer blocked on the channel once half of its capacity is free, not at every batch
     * taken: it then puts several batches before it blocks again, so a fast producer parks, is
     * woken and switches its phase clock once per half capacity rather than once per batch. An
     * empty channel always wakes it (a record limit may be what blocks it).
     */
    private void wakeProducer(int channel) {
        if (queues[channel].size() <= capacity / 2) {
            notFull[channel].signal();
        }
    }

    private Batch dequeue() {
        for (int i = 0; i < queues.length; i++) {
            int c = (next + i) % queues.length;
            Batch batch = blocked[c] ? null : queues[c].pollFirst();
            if (batch != null) {
                next = c + 1;
                available--;
                queuedRecords[c] -= batch.size;
                lastChannel = c;
                wakeProducer(c);
                return batch;
            }
        }
        throw new IllegalStateException(
                "available count " + available + " but every open channel is empty");
    }
}
