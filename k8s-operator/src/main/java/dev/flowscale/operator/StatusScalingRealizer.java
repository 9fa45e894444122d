package dev.flowscale.operator;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The autoscaler's side of the one-executor path (as the Flink Kubernetes operator's autoscaler
 * writes parallelism overrides for its reconciler to apply): a SCALE decision is only recorded as
 * {@code status.desiredParallelism} (the status write is itself an event for the reconciler, which
 * watches status too; the reconcile asked for here only comes sooner); the reconciler changes the
 * runner and reports the end through {@link #finished}, which completes the stage the loop waits
 * on.
 */
final class StatusScalingRealizer implements ScalingRealizer, AutoCloseable {
    private final JobStatusStore store;
    private final String namespace;
    private final String name;
    private final Runnable reconcile;
    private CompletableFuture<Void> inFlight;
    private Map<String, Integer> requested = Map.of();

    StatusScalingRealizer(JobStatusStore store, String namespace, String name, Runnable reconcile) {
        this.store = store;
        this.namespace = namespace;
        this.name = name;
        this.reconcile = reconcile;
    }

    @Override
    public synchronized CompletionStage<Void> realize(ScalingDecision decision) {
        Map<String, Integer> changes = new TreeMap<>();
        decision.operators().values().stream()
                .filter(OperatorDecision::changes)
                .forEach(op -> changes.put(op.operatorId(), op.newParallelism()));
        if (store.edit(namespace, name, status -> status.desiredParallelism.putAll(changes))
                == null) {
            return CompletableFuture.failedFuture(
                    new OperatorException(
                            "StreamJob "
                                    + namespace
                                    + "/"
                                    + name
                                    + " was deleted before its rescale was recorded"));
        }
        requested = changes;
        inFlight = new CompletableFuture<>();
        CompletableFuture<Void> recorded = inFlight;
        reconcile.run();
        return recorded;
    }

    /** The reconciler finished the rescale this loop asked for (or another one). */
    synchronized void finished(boolean succeeded) {
        CompletableFuture<Void> done = inFlight;
        inFlight = null;
        if (done != null && succeeded) {
            done.complete(null);
        } else if (done != null) {
            done.completeExceptionally(
                    new OperatorException(
                            "StreamJob "
                                    + namespace
                                    + "/"
                                    + name
                                    + ": the rescale failed; see status.lastRescale"));
        }
    }

    /**
     * After a reconcile pass with nothing pending: when its status holds what this loop asked for
     * (not a stale copy from before), the request is over even if no rescale was reported: done
     * when the job runs at it, failed when the reconciler declined it (e.g. it failed before).
     */
    synchronized void settled(StreamJob job) {
        var status = job.getStatus();
        if (inFlight == null
                || status == null
                || status.pending != null
                || !status.desiredParallelism.entrySet().containsAll(requested.entrySet())) {
            return;
        }
        finished(status.parallelism.entrySet().containsAll(requested.entrySet()));
    }

    synchronized boolean inProgress() {
        return inFlight != null;
    }

    @Override
    public synchronized void close() {
        if (inFlight != null) {
            inFlight.completeExceptionally(
                    new OperatorException(
                            "StreamJob "
                                    + namespace
                                    + "/"
                                    + name
                                    + ": the autoscaler loop stopped; the rescale it recorded goes on in the reconciler"));
            inFlight = null;
        }
    }
}
