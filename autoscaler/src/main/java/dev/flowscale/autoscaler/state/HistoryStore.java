package dev.flowscale.autoscaler.state;

import dev.flowscale.policy.api.ScalingHistory;
import java.util.Optional;

/**
 * Where a job's autoscaler keeps what it learned (its {@link ScalingHistory}: decisions, measured
 * rescales, the sources' rate log), so that a loop started later (an operator restarted, another
 * operator replica that became leader) resumes from it, as the Flink autoscaler keeps its state in
 * a {@code KubernetesAutoScalerStateStore}.
 */
public interface HistoryStore {
    /** The stored history; empty when none was stored yet. */
    Optional<ScalingHistory> load();

    /** Stores the history, replacing the stored one; it may keep only its newest part. */
    void save(ScalingHistory history);

    /** A store that keeps nothing: a loop that starts afresh each time. */
    HistoryStore NONE =
            new HistoryStore() {
                @Override
                public Optional<ScalingHistory> load() {
                    return Optional.empty();
                }

                @Override
                public void save(ScalingHistory history) {}
            };
}
