package dev.flowscale.operator.loop;

import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.RecordingRealizer;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The autoscaler's side of the one-executor path (as the Flink Kubernetes operator's autoscaler
 * writes parallelism overrides for its reconciler to apply): a SCALE decision is only recorded as
 * {@code status.desiredParallelism} and the loop is done (the status write is itself an event for
 * the reconciler, which watches status too; the reconcile asked for here only comes sooner). The
 * reconciler changes the runner and records the end in {@code status.lastRescale}; the loop reads
 * it from the informer cache on its next ticks ({@link #outcome}). Nothing calls the loop back.
 */
final class StatusScalingRealizer implements RecordingRealizer {
    private final JobStatusStore store;
    private final String namespace;
    private final String name;
    private final Runnable reconcile;
    private final Supplier<Optional<StreamJob>> cached;
    private final Clock clock;

    /**
     * @param cached the job as the informer cache holds it (empty once it is deleted)
     */
    StatusScalingRealizer(
            JobStatusStore store,
            String namespace,
            String name,
            Runnable reconcile,
            Supplier<Optional<StreamJob>> cached,
            Clock clock) {
        this.store = store;
        this.namespace = namespace;
        this.name = name;
        this.reconcile = reconcile;
        this.cached = cached;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Void> realize(ScalingDecision decision) {
        Map<String, Integer> changes = new TreeMap<>();
        decision.operators().values().stream()
                .filter(OperatorDecision::changes)
                .forEach(op -> changes.put(op.operatorId(), op.newParallelism()));
        String request = clock.instant().toString();
        if (store.edit(
                        namespace,
                        name,
                        status -> {
                            status.desiredParallelism.putAll(changes);
                            status.desiredRequest = request;
                        })
                == null) {
            return CompletableFuture.failedFuture(
                    new OperatorException(
                            "StreamJob "
                                    + namespace
                                    + "/"
                                    + name
                                    + " was deleted before its rescale was recorded"));
        }
        reconcile.run();
        return CompletableFuture.completedFuture(null);
    }

    /**
     * The rescale's end as status shows it (also for one an earlier loop recorded, before an
     * operator restart or a leader change), once the executor settled the request ({@code
     * status.settledRequest} is this rescale's {@code desiredRequest} or a later one) and nothing
     * is pending: {@code status.lastRescale} agrees with the target and finished after it started,
     * so its time, measured downtime, path and result are the record's; or status holds the request
     * and no rescale of it was recorded (the job already ran at it, or the executor declined it,
     * e.g. it failed before for this generation), so it ends now, failed unless the job runs at it.
     * Until the executor has settled the request its pass has not seen it: an empty {@code pending}
     * then says nothing about this rescale.
     */
    @Override
    public Optional<RescaleRecord> outcome(RescaleRecord started) {
        StreamJobStatus status = cached.get().map(StreamJob::getStatus).orElse(null);
        if (status == null || status.pending != null || !settled(status, started)) {
            return Optional.empty();
        }
        RescaleOutcome last = status.lastRescale;
        Map<String, Integer> target = started.target();
        if (last != null
                && agrees(last.to, target)
                && !Instant.parse(last.time).isBefore(started.started())) {
            // An in-place Flink rescale ends for the loop once its input cost is known (or not).
            return Boolean.TRUE.equals(last.inputCostPending)
                    ? Optional.empty()
                    : Optional.of(measured(started, last));
        }
        Map<String, Integer> wanted = new TreeMap<>(status.parallelism);
        wanted.putAll(status.desiredParallelism);
        if (!status.desiredParallelism.isEmpty() && agrees(wanted, target)) {
            boolean runs = agrees(status.parallelism, target);
            return Optional.of(started.finishedAt(clock.instant(), !runs));
        }
        return Optional.empty();
    }

    /**
     * Whether the executor settled a request recorded at or after the rescale's start. A request
     * without an id (recorded by an earlier operator release) is taken as seen.
     */
    private static boolean settled(StreamJobStatus status, RescaleRecord started) {
        if (status.desiredRequest == null) {
            return true;
        }
        return status.settledRequest != null
                && !Instant.parse(status.settledRequest).isBefore(started.started());
    }

    /** The record as the executor measured it: its downtime ends when the rescale finished. */
    private static RescaleRecord measured(RescaleRecord started, RescaleOutcome last) {
        Instant finished = Instant.parse(last.time);
        Duration downtime = Duration.ofNanos((long) (last.downtimeSeconds * 1e9));
        return new RescaleRecord(
                        finished.minus(downtime),
                        Optional.of(finished),
                        started.target(),
                        !last.succeeded,
                        last.path == null ? started.path() : last.path)
                .withInputCost(
                        Optional.ofNullable(last.inputCostSeconds)
                                .map(s -> Duration.ofNanos((long) (s * 1e9))));
    }

    /** Whether {@code shown} names some of the target's operators, each at its target. */
    private static boolean agrees(Map<String, Integer> shown, Map<String, Integer> target) {
        if (shown == null) {
            return false;
        }
        boolean any = false;
        for (Map.Entry<String, Integer> op : target.entrySet()) {
            Integer at = shown.get(op.getKey());
            if (at != null && !at.equals(op.getValue())) {
                return false;
            }
            any |= at != null;
        }
        return any;
    }
}
