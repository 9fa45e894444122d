package dev.flowscale.cli;

import dev.flowscale.engine.runtime.RescaleResult;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/** Temporary in-process realizer (replaced by the reconfigurator module's). */
final class EngineRealizer implements ScalingRealizer, AutoCloseable {
    private final RunningJob job;
    private final Duration timeout;
    private final BiConsumer<RescaleResult, Throwable> listener;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "flowscale-realizer");
        t.setDaemon(true);
        return t;
    });
    private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);

    EngineRealizer(RunningJob job, Duration timeout, BiConsumer<RescaleResult, Throwable> listener) {
        this.job = job;
        this.timeout = timeout;
        this.listener = listener;
    }

    @Override
    public synchronized CompletionStage<Void> realize(ScalingDecision decision) {
        if (!inFlight.isDone()) {
            return CompletableFuture.failedFuture(new IllegalStateException("rescale already in progress"));
        }
        Map<String, Integer> changes = new LinkedHashMap<>();
        for (OperatorDecision op : decision.operators().values()) {
            if (op.newParallelism() != op.currentParallelism()) {
                changes.put(op.operatorId(), op.newParallelism());
            }
        }
        inFlight = CompletableFuture.runAsync(() -> {
            try {
                listener.accept(job.rescale(changes, timeout), null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                listener.accept(null, e);
            } catch (RuntimeException e) {
                listener.accept(null, e);
                throw e;
            }
        }, executor);
        return inFlight;
    }

    void awaitIdle(Duration wait) {
        try {
            inFlight.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // A failed rescale was reported to the listener.
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
