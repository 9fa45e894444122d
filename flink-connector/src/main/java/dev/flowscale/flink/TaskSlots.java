package dev.flowscale.flink;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;

/**
 * A Flink cluster's task slots as its REST API's {@code GET overview} reports them.
 *
 * @param total slots the cluster's TaskManagers offer now ({@code slots-total})
 * @param available slots no job holds ({@code slots-available})
 * @param taskManagers TaskManagers registered now ({@code taskmanagers})
 */
public record TaskSlots(int total, int available, int taskManagers) {

    public TaskSlots {
        if (total < 0 || available < 0 || available > total || taskManagers < 0) {
            throw new FlinkConnectorException(
                    "Flink's overview reports "
                            + available
                            + " of "
                            + total
                            + " task slots available on "
                            + taskManagers
                            + " TaskManager(s); a cluster's overview has 0 <= available <= total");
        }
    }

    /** Reads the cluster's overview. */
    public static TaskSlots read(FlinkRestClient rest) {
        JsonNode overview = rest.get("overview");
        if (!overview.has("slots-total") || !overview.has("slots-available")) {
            throw new FlinkConnectorException(
                    "GET "
                            + rest.base()
                            + "overview answered no slots-total or slots-available: "
                            + overview
                            + "; is this a Flink JobManager's REST endpoint?");
        }
        return new TaskSlots(
                overview.path("slots-total").asInt(),
                overview.path("slots-available").asInt(),
                overview.path("taskmanagers").asInt());
    }

    /**
     * Slots that jobs other than {@code jobId} hold, from each TaskManager's {@code
     * allocatedSlots}; empty where a TaskManager does not list them (older Flink versions).
     */
    public static OptionalInt heldByOtherJobs(FlinkRestClient rest, String jobId) {
        int others = 0;
        for (JsonNode tm : rest.get("taskmanagers").path("taskmanagers")) {
            JsonNode slots =
                    rest.get("taskmanagers/" + tm.path("id").asText()).get("allocatedSlots");
            if (slots == null || !slots.isArray()) {
                return OptionalInt.empty();
            }
            for (JsonNode slot : slots) {
                others += jobId.equals(slot.path("jobId").asText()) ? 0 : 1;
            }
        }
        return OptionalInt.of(others);
    }
}
