package dev.flowscale.engine.runtime;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The end of a bounded run whose operators commit on checkpoint completion (a two-phase-commit
 * sink): when every source instance has read its whole input, one more checkpoint is taken while
 * every task still runs, its completion is told to every operator (the sink commits its last
 * transaction), and only then do the sources finish and the job drain. As Flink's final checkpoint
 * at end of input: without it a finishing job would abort what came after its last checkpoint, and
 * committing on close instead would write that tail twice if the runner died before it finished
 * (the restart replays from the last checkpoint).
 */
final class FinalCheckpoint {
    private static final long RETRY_MILLIS = 50;

    private final int sourceInstances;
    private final AtomicInteger atEnd = new AtomicInteger();
    private final AtomicBoolean taken = new AtomicBoolean();
    private final Supplier<CompletableFuture<Path>> checkpoint;
    private final Runnable stopSources;
    private final BooleanSupplier running;
    private final ScheduledExecutorService timer;

    /**
     * @param sourceInstances the run's source instances: the last of them to end starts it
     * @param checkpoint takes a checkpoint and queues its completion notices on {@code timer}
     * @param stopSources lets the sources finish
     * @param running whether the run this belongs to still runs (no rescale, failure or end)
     * @param timer a single thread, so that the sources stop after the notices ran
     */
    FinalCheckpoint(
            int sourceInstances,
            Supplier<CompletableFuture<Path>> checkpoint,
            Runnable stopSources,
            BooleanSupplier running,
            ScheduledExecutorService timer) {
        this.sourceInstances = sourceInstances;
        this.checkpoint = checkpoint;
        this.stopSources = stopSources;
        this.running = running;
        this.timer = timer;
    }

    /** A source instance has read its whole input; the last one starts the final checkpoint. */
    void sourceAtEnd() {
        if (atEnd.incrementAndGet() == sourceInstances && taken.compareAndSet(false, true)) {
            take();
        }
    }

    /** Retries until a checkpoint completes (one may be under way) or the run stops. */
    private void take() {
        if (!running.getAsBoolean()) {
            return;
        }
        checkpoint
                .get()
                .whenComplete(
                        (path, error) -> {
                            try {
                                if (error == null) {
                                    timer.execute(stopSources);
                                } else {
                                    timer.schedule(this::take, RETRY_MILLIS, TimeUnit.MILLISECONDS);
                                }
                            } catch (RejectedExecutionException closing) {
                                // The job is closing: nothing is left to finish.
                            }
                        });
    }
}
