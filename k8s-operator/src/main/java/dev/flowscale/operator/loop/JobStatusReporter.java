package dev.flowscale.operator.loop;

import dev.flowscale.operator.api.DecisionRecord;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Clock;
import java.util.Objects;

/**
 * Makes one StreamJob's autoscaling visible: every decision in status (last decision; the history
 * keeps those that differ from the one before), SCALE decisions as ScalingReport Events, newly
 * blocked ones as ScalingBlocked. Rescales are reported by the reconciler, which carries them out.
 */
public final class JobStatusReporter implements DecisionListener {
    private final JobStatusStore store;
    private final JobEvents events;
    private final String namespace;
    private final String name;
    private final Clock clock;

    JobStatusReporter(
            JobStatusStore store, JobEvents events, String namespace, String name, Clock clock) {
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
        StreamJob job =
                store.edit(
                        namespace,
                        name,
                        status -> {
                            previous[0] = status.lastDecision;
                            if (previous[0] == null
                                    || !Objects.equals(previous[0].summary, record.summary)) {
                                status.record(record);
                            } else {
                                status.lastDecision = record;
                            }
                        });
        if (job == null) {
            return; // deleted
        }
        boolean changed =
                previous[0] == null || !Objects.equals(previous[0].summary, record.summary);
        if (decision.outcome() == Outcome.SCALE) {
            events.normal(job, JobEvents.SCALING_REPORT, DecisionRecords.message(decision));
        } else if (decision.outcome() == Outcome.BLOCKED && changed) {
            events.normal(job, JobEvents.SCALING_BLOCKED, DecisionRecords.message(decision));
        }
    }
}
