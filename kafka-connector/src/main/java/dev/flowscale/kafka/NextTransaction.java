package dev.flowscale.kafka;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A sink instance's next transaction, opened ahead on a thread of its own. Opening one (a new
 * producer, {@code initTransactions}: round trips to find and register with the transaction
 * coordinator, and the topic's metadata) is a cost per checkpoint, not per record; paid on the
 * record path it counted as the sink's useful time, so the sink's measured capacity fell with its
 * input rate (halved when the input halved), and the autoscaler saw a bottleneck that was not one.
 * Opened here; the sink takes it with {@link #takeIfOpened} and holds the records that arrive
 * before the opening has finished, so no record waits for it.
 *
 * @param <T> the transaction ({@link SinkTransaction}; tests use their own)
 */
final class NextTransaction<T> implements AutoCloseable {
    private final Function<String, T> open;
    private final Consumer<T> discard;
    private final ExecutorService opener;
    private volatile Thread openerThread;
    private volatile boolean closed;
    private Future<T> pending;
    private String pendingId;

    /**
     * @param open opens the transaction of an id (on the opener thread)
     * @param discard aborts a transaction opened but never taken (at close)
     * @param name the opener thread's name
     */
    NextTransaction(Function<String, T> open, Consumer<T> discard, String name) {
        this.open = open;
        this.discard = discard;
        this.opener =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, name);
                            t.setDaemon(true);
                            openerThread = t;
                            return t;
                        });
    }

    /** Starts opening the transaction {@code id} unless one is already opened ahead. */
    synchronized void openAhead(String id) {
        if (pending == null) {
            pendingId = id;
            pending = opener.submit(() -> openUnlessClosed(id));
        }
    }

    /** A close before the opening starts skips it (the pool clears an interrupt between tasks). */
    private T openUnlessClosed(String id) {
        if (closed) {
            throw new IllegalStateException("closed before transaction " + id + " was opened");
        }
        return open.apply(id);
    }

    /**
     * The transaction opened ahead as {@code id} (waiting for its opening if still under way), or,
     * if none was, one opened now on this thread.
     */
    T take(String id) throws InterruptedException {
        Future<T> opening;
        synchronized (this) {
            if (pending == null || !id.equals(pendingId)) {
                return open.apply(id);
            }
            opening = takePending();
        }
        return opened(opening, id);
    }

    /**
     * The transaction opened ahead as {@code id} if its opening has finished, else null and the
     * opening goes on (started now if none was under way): never waits for the broker, so the
     * sink's record path does not either.
     */
    T takeIfOpened(String id) throws InterruptedException {
        Future<T> opening = null;
        synchronized (this) {
            if (pending == null) {
                openAhead(id);
            }
            if (id.equals(pendingId)) {
                if (!pending.isDone()) {
                    return null;
                }
                opening = takePending();
            }
        }
        return opening == null ? open.apply(id) : opened(opening, id);
    }

    private Future<T> takePending() {
        Future<T> opening = pending;
        pending = null;
        pendingId = null;
        return opening;
    }

    private T opened(Future<T> opening, String id) throws InterruptedException {
        try {
            return opening.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new KafkaConnectorException(
                    "kafka sink: opening transaction " + id + " failed", e);
        }
    }

    /**
     * Interrupts an opening under way, aborts a transaction opened ahead and not taken, and stops
     * the thread. An opening left to run would retry against brokers that may be going away (a
     * runner or demo stopping) for up to the producer's {@code max.block.ms}, a minute, logging
     * every retry; interrupted, it closes its producer ({@link SinkTransaction#begin}).
     */
    @Override
    public synchronized void close() {
        closed = true;
        if (pending != null) {
            Future<T> opening = takePending();
            Thread thread = openerThread;
            if (thread != null) {
                thread.interrupt();
            }
            // Runs after the opening on the same thread: one that ignored the interrupt and
            // opened is aborted then.
            opener.execute(() -> discardOpened(opening));
        }
        opener.shutdown();
    }

    private void discardOpened(Future<T> opening) {
        Thread.interrupted(); // close's interrupt was for the opening, not for the abort
        try {
            discard.accept(opening.get());
        } catch (ExecutionException | RuntimeException e) {
            // It never opened, or its abort failed: the broker times it out; nothing was sent.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
