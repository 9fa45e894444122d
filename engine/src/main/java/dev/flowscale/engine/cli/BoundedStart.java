package dev.flowscale.engine.cli;

import dev.flowscale.common.DurationText;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A step of a run's start-up (building the job's graph, restoring its snapshot, starting its
 * threads) bounded by the run's {@code --duration}: the step runs on a daemon thread of its own,
 * and when the deadline comes first it is interrupted and left behind, so that code which ignores
 * interruption (a user's {@code build}, a codec, a slow disk) cannot hold the run past its duration
 * by more than {@link #GRACE}. What such a step returns after the deadline is handed to a discard
 * action (a started job is closed, its storage released), never to the run.
 */
public final class BoundedStart<T> implements Runnable {
    /** What a step does; it may throw what the run would have thrown without a bound. */
    @FunctionalInterface
    public interface Step<T> {
        T run() throws Exception;
    }

    /**
     * How long a step interrupted at the deadline may take to end, and what it returned to be
     * discarded, before the run ends without it.
     */
    public static final Duration GRACE = Duration.ofSeconds(5);

    private final Step<T> step;
    private final Consumer<? super T> discard;
    private T value;
    private Exception failure;
    private Error error;
    private boolean done;
    private boolean abandoned;
    private boolean discarded;

    private BoundedStart(Step<T> step, Consumer<? super T> discard) {
        this.step = step;
        this.discard = discard;
    }

    /**
     * Runs {@code step} until {@code deadlineNanos} ({@link System#nanoTime()}; {@link
     * Long#MAX_VALUE}: no bound, and the step runs on this thread).
     *
     * @param discard receives what the step returns after the deadline left it behind
     * @return the step's value, or empty if the deadline came first
     * @throws Exception what the step threw, unchanged
     */
    public static <T> Optional<T> within(
            long deadlineNanos, Step<T> step, Consumer<? super T> discard) throws Exception {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Optional.of(step.run());
        }
        BoundedStart<T> bounded = new BoundedStart<>(step, discard);
        // Created here, so the thread inherits this one's context class loader (a user job's).
        Thread thread = new Thread(bounded, "flowscale-start-up");
        thread.setDaemon(true);
        thread.start();
        try {
            return bounded.await(deadlineNanos);
        } finally {
            if (bounded.isAbandoned()) {
                thread.interrupt();
                bounded.awaitDiscarded(System.nanoTime() + GRACE.toNanos());
            }
        }
    }

    /** The deadline {@code duration} after now; {@link Long#MAX_VALUE} for none (null). */
    public static long deadline(Duration duration) {
        return duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
    }

    /** The line a run prints when its {@code duration} passed during its start-up. */
    public static String overran(Duration duration) {
        return "\nduration reached during start-up (--duration "
                + DurationText.format(duration)
                + "): the job never ran (its start-up was interrupted)";
    }

    @Override
    public void run() {
        T result = null;
        try {
            result = step.run();
        } catch (Exception e) {
            failure = e;
        } catch (Error e) {
            error = e;
        }
        boolean late;
        synchronized (this) {
            value = result;
            done = true;
            late = abandoned;
            notifyAll();
        }
        try {
            if (late && result != null) {
                discard.accept(result);
            }
        } finally {
            synchronized (this) {
                discarded = true;
                notifyAll();
            }
        }
    }

    private synchronized Optional<T> await(long deadline) throws Exception {
        try {
            while (!done) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    abandoned = true;
                    return Optional.empty();
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            abandoned = true;
            throw e;
        }
        if (error != null) {
            throw error;
        }
        if (failure != null) {
            throw failure;
        }
        return Optional.of(value);
    }

    /** Until the step left behind has ended and its value was discarded, or {@code deadline}. */
    private synchronized void awaitDiscarded(long deadline) throws InterruptedException {
        for (long left = deadline - System.nanoTime();
                !discarded && left > 0;
                left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private synchronized boolean isAbandoned() {
        return abandoned;
    }
}
