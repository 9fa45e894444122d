package dev.flowscale.operator;

import dev.flowscale.operator.api.DecisionRecord;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.reconfig.RescaleListener;
import dev.flowscale.reconfig.RescaleReport;
import java.time.Clock;
import java.util.Objects;

/**
 * Makes one StreamJob's autoscaling visible: every decision in status (last decision; the history
 * keeps those that differ from the one before), SCALE decisions as ScalingReport Events, newly
 * blocked ones as ScalingBlocked, and rescales as Rescaled or RescaleFailed Events with the
 * savepoint and parallelism in status.
 */
public final class JobStatusReporter implements DecisionListener, RescaleListener {
    private final JobStatusStore store;
    private final JobEvents events;
    private final String namespace;
    private final String name;
    private final Clock clock;

    JobStatusReporter(JobStatusStore store, JobEvents events, String namespace, String name, Clock clock) {
        this.store = store;
        this.events = events;
        this.namespace = namespace;
        this.name = name;
        this.clock = clock;
    }

    @Override
    public void onDecision(ScalingDecision decision) {
        DecisionRecord record = DecisionRecords.of(decision);
        DecisionRecord[] previous = new DecisionRecord[1];
        StreamJob job = store.edit(namespace, name, status -> {
            previous[0] = status.lastDecision;
            if (previous[0] == null || !Objects.equals(previous[0].summary, record.summary)) {
                status.record(record);
            } else {
                status.lastDecision = record;
            }
        });
        if (job == null) {
            return; // deleted
        }
        boolean changed = previous[0] == null || !Objects.equals(previous[0].summary, record.summary);
        if (decision.outcome() == Outcome.SCALE) {
            events.normal(job, JobEvents.SCALING_REPORT, DecisionRecords.message(decision));
        } else if (decision.outcome() == Outcome.BLOCKED && changed) {
            events.normal(job, JobEvents.SCALING_BLOCKED, DecisionRecords.message(decision));
        }
    }

    @Override
    public void onRescale(RescaleReport report) {
        StreamJob job = store.edit(namespace, name, status -> {
            report.savepoint().ifPresent(p -> status.lastSavepoint = p.toString());
            status.phase = JobPhase.Running;
            Conditions.set(status, Conditions.SCALING, false, report.succeeded() ? "Rescaled" : "RescaleFailed",
                    report.summary(), status.observedGeneration, clock.instant());
        });
        if (job == null) {
            return; // deleted
        }
        if (report.succeeded()) {
            events.normal(job, JobEvents.RESCALED, report.summary());
        } else {
            events.warning(job, JobEvents.RESCALE_FAILED, report.summary());
        }
    }
}
