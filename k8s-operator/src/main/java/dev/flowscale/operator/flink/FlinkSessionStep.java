package dev.flowscale.operator.flink;

import dev.flowscale.flink.FlinkCalls;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.JarResubmission;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.ReconcileStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One reconcile pass's view of a Flink session target's rescale: the pass (its status writes), the
 * cluster's REST calls, the rescale timeout and the clock. The steps of both paths read the change
 * from {@code status.pending} and record what each call returned there before the next call.
 */
final class FlinkSessionStep {
    private final ReconcileStatus pass;
    private final FlinkRestClient rest;
    private final Duration timeout;
    private final Clock clock;

    FlinkSessionStep(ReconcileStatus pass, FlinkRestClient rest, Duration timeout, Clock clock) {
        this.pass = pass;
        this.rest = rest;
        this.timeout = timeout;
        this.clock = clock;
    }

    ReconcileStatus pass() {
        return pass;
    }

    StreamJob job() {
        return pass.job();
    }

    StreamJobStatus status() {
        return pass.status();
    }

    /** The change under way, as this pass last read or wrote it. */
    PendingChange pending() {
        return pass.status().pending;
    }

    FlinkRestClient rest() {
        return rest;
    }

    FlinkCalls calls() {
        return new FlinkCalls(rest);
    }

    FlinkJob read(String jobId) {
        return FlinkJob.read(rest, jobId);
    }

    Clock clock() {
        return clock;
    }

    Duration timeout() {
        return timeout;
    }

    /** Writes a change of {@code status.pending} (checked again on the status it is applied to). */
    void writePending(Consumer<PendingChange> change) {
        pass.write(
                status -> {
                    if (status.pending != null) {
                        change.accept(status.pending);
                    }
                });
    }

    /**
     * Whether the current leg ran out of time: the change counts from {@code pending.started}, its
     * rollback from {@code pending.rollbackStarted}.
     */
    boolean pastDeadline() {
        PendingChange p = pending();
        String from = rollingBack() ? p.rollbackStarted : p.started;
        return !clock.instant().isBefore(Instant.parse(from).plus(timeout));
    }

    boolean rollingBack() {
        return Boolean.TRUE.equals(pending().rollingBack);
    }

    /** spec.flink.jar: how the savepoint path starts the job again; empty: in place only. */
    Optional<JarResubmission> jar() {
        return FlinkTargetParts.jar(job().getSpec().flink);
    }
}
