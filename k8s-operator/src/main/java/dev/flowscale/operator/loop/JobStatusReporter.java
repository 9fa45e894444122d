package dev.flowscale.operator.loop;

import dev.flowscale.operator.api.DecisionRecord;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Makes one StreamJob's autoscaling visible: every decision in status (last decision; the history
 * keeps those that differ from the one before), SCALE decisions as ScalingReport Events, newly
 * blocked ones as ScalingBlocked. Rescales are reported by the reconciler, which carries them out.
 */
public final class JobStatusReporter implements DecisionListener {
    /** Phases in which no loop runs: a decision that arrives then belongs to an ended run. */
    private static final Set<JobPhase> ENDED =
            EnumSet.of(JobPhase.Finished, JobPhase.Failed, JobPhase.Suspended);

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
        boolean[] stale = new boolean[1];
        StreamJob job =
                store.edit(
                        namespace,
                        name,
                        status -> {
                            // A decision taken on the samples of a run that has since ended (its
                            // input ran out, it failed, it was suspended) would outlive the run in
                            // status: the phase read here is the stored one, and a concurrent
                            // phase change makes this edit conflict and read it again.
                            stale[0] = ENDED.contains(status.phase);
                            if (stale[0]) {
                                return;
                            }
                            previous[0] = status.lastDecision;
                            if (previous[0] == null
                                    || !Objects.equals(previous[0].summary, record.summary)) {
                                status.record(record);
                            } else {
                                status.lastDecision = record;
                            }
                        });
        if (job == null || stale[0]) {
            return; // deleted, or the run ended before the decision was recorded
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
