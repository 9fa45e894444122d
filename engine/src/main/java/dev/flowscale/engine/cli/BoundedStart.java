package dev.flowscale.engine.cli;

import dev.flowscale.common.DurationText;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A step of a run's start-up (building the job's graph, restoring its snapshot, starting its
 * threads) bounded by the run's {@code --duration}: the step runs on a daemon thread of its own. A
 * step that ends within {@link #GRACE} after the deadline (a start-up slowed by a loaded machine)
 * hands its job to the run, which then ends at once; one still running then is interrupted and left
 * behind, so that code which ignores interruption (a user's {@code build}, a codec, a slow disk)
 * cannot hold the run past its duration by more than the grace. What such a step returns later is
 * handed to a discard action (a started job is closed, its storage released), never to the run.
 */
public final class BoundedStart<T> implements Runnable {
    /** How long after the deadline a step may still end and hand its job to the run. */
    public static final Duration GRACE = Duration.ofSeconds(30);

    /** What a step does; it may throw what the run would have thrown without a bound. */
    @FunctionalInterface
    public interface Step<T> {
        T run() throws Exception;
    }

    private final Step<T> step;
    private final Consumer<? super T> discard;
    private T value;
    private Exception failure;
    private Error error;
    private boolean done;
    private boolean abandoned;

    private BoundedStart(Step<T> step, Consumer<? super T> discard) {
        this.step = step;
        this.discard = discard;
    }

    /**
     * Runs {@code step} until {@code deadlineNanos} ({@link System#nanoTime()}; {@link
     * Long#MAX_VALUE}: no bound, and the step runs on this thread) plus {@link #GRACE}.
     *
     * @param discard receives what the step returns after it was left behind
     * @return the step's value, or empty if it was still running at the deadline plus the grace
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
            return bounded.await(deadlineNanos + GRACE.toNanos());
        } finally {
            if (bounded.isAbandoned()) {
                thread.interrupt();
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
                + "): the job never ran; its start-up, still under way "
                + GRACE.toSeconds()
                + " s later, was interrupted";
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
        if (late && result != null) {
            discard.accept(result);
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

    private synchronized boolean isAbandoned() {
        return abandoned;
    }
}
