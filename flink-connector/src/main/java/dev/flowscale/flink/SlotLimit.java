package dev.flowscale.flink;

import java.util.Map;
import java.util.Objects;

/**
 * The task slots a Flink job may use, and where that number comes from.
 *
 * @param slots the most slots the job may hold in all, at least 1
 * @param why where the number comes from, for the decision's reasons, e.g. "the Flink cluster has
 *     16 task slots on 2 TaskManager(s), none held by other jobs"
 * @param groups slot-sharing group per operator id; an operator missing from it shares Flink's
 *     default group
 */
public record SlotLimit(int slots, String why, Map<String, String> groups) {

    public SlotLimit {
        if (slots < 1) {
            throw new FlinkConnectorException(
                    "a Flink job's task slots must be at least 1, not "
                            + slots
                            + " ("
                            + why
                            + "); give the cluster a TaskManager or raise the configured slots");
        }
        Objects.requireNonNull(why, "slot limit reason");
        groups = Map.copyOf(groups);
    }
}
