package dev.flowscale.operator.loop;

import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The autoscaler's side of the one-executor path (as the Flink Kubernetes operator's autoscaler
 * writes parallelism overrides for its reconciler to apply): a SCALE decision is only recorded as
 * {@code status.desiredParallelism} (the status write is itself an event for the reconciler, which
 * watches status too; the reconcile asked for here only comes sooner); the reconciler changes the
 * runner and records the end in status, which the loop reads on every tick ({@link #observe}): the
 * stage the loop waits on completes then. Nothing calls the loop back.
 */
final class StatusScalingRealizer implements ScalingRealizer, AutoCloseable {
    private final JobStatusStore store;
    private final String namespace;
    private final String name;
    private final Runnable reconcile;
    private CompletableFuture<Void> inFlight;
    private final Clock clock;
    private Map<String, Integer> requested = Map.of();
    private Instant requestedAt = Instant.MIN;

    StatusScalingRealizer(
            JobStatusStore store, String namespace, String name, Runnable reconcile, Clock clock) {
        this.store = store;
        this.clock = clock;
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
        requestedAt = clock.instant();
        inFlight = new CompletableFuture<>();
        CompletableFuture<Void> recorded = inFlight;
        reconcile.run();
        return recorded;
    }

    /**
     * Follows a rescale an earlier loop of the job recorded (before an operator restart or a leader
     * change) as if this loop had asked for it: {@link #observe} completes the stage when status
     * shows its end, at once if it ended meanwhile.
     */
    @Override
    public synchronized CompletionStage<Void> resume(RescaleRecord started) {
        requested = Map.copyOf(started.target());
        requestedAt = started.started();
        inFlight = new CompletableFuture<>();
        return inFlight;
    }

    /**
     * Learns from the job's status (the informer cache's copy, read on every tick) whether the
     * rescale this loop recorded is over: nothing is pending and either {@code status.lastRescale}
     * is a rescale to what it asked for, finished after it asked (succeeded or not), or status
     * holds the request (not a stale copy from before) and the job runs at it, or declined it (e.g.
     * it failed before for this generation).
     */
    synchronized void observe(StreamJobStatus status) {
        if (inFlight == null || status == null || status.pending != null) {
            return;
        }
        RescaleOutcome last = status.lastRescale;
        var asked = asked(status).entrySet();
        if (last != null
                && last.to != null
                && last.to.entrySet().containsAll(asked)
                && !Instant.parse(last.time).isBefore(requestedAt)) {
            finish(last.succeeded);
        } else if (status.desiredParallelism.entrySet().containsAll(asked)) {
            finish(status.parallelism.entrySet().containsAll(asked));
        }
    }

    /**
     * What this loop asked of the runner's operators: a rescale resumed from memory names every
     * operator the policy evaluated (sources and sinks the runner's status never lists included).
     */
    private Map<String, Integer> asked(StreamJobStatus status) {
        if (status.parallelism.isEmpty()) {
            return requested;
        }
        Map<String, Integer> asked = new TreeMap<>(requested);
        asked.keySet().retainAll(status.parallelism.keySet());
        return asked;
    }

    private void finish(boolean succeeded) {
        CompletableFuture<Void> done = inFlight;
        inFlight = null;
        if (succeeded) {
            done.complete(null);
        } else {
            done.completeExceptionally(
                    new OperatorException(
                            "StreamJob "
                                    + namespace
                                    + "/"
                                    + name
                                    + ": the rescale failed; see status.lastRescale"));
        }
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
