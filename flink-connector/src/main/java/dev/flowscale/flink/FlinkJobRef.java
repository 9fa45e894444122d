package dev.flowscale.flink;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which Flink job flowscale scales, on which REST endpoint. The savepoint path resubmits the job,
 * and Flink gives the new run a new job id: the realizer moves this reference to it, and the
 * metrics source follows.
 */
public final class FlinkJobRef {
    private static final Pattern JOB_ID = Pattern.compile("[0-9a-f]{32}");

    private final FlinkRestClient rest;
    private volatile String jobId;

    public FlinkJobRef(FlinkRestClient rest, String jobId) {
        this.rest = Objects.requireNonNull(rest, "Flink REST client");
        this.jobId = Objects.requireNonNull(jobId, "Flink job id");
    }

    /**
     * The running job with this id or name; with none given, the only running job.
     *
     * @throws FlinkConnectorException naming the running jobs when none or several match
     */
    public static FlinkJobRef find(FlinkRestClient rest, String idOrName) {
        if (idOrName != null && JOB_ID.matcher(idOrName).matches()) {
            return new FlinkJobRef(rest, idOrName);
        }
        List<String> matching = new ArrayList<>();
        List<String> running = new ArrayList<>();
        for (JsonNode job : rest.get("jobs/overview").path("jobs")) {
            if (!"RUNNING".equals(job.path("state").asText())) {
                continue;
            }
            String name = job.path("name").asText();
            running.add("'" + name + "' (" + job.path("jid").asText() + ")");
            if (idOrName == null || idOrName.equals(name)) {
                matching.add(job.path("jid").asText());
            }
        }
        if (matching.size() == 1) {
            return new FlinkJobRef(rest, matching.get(0));
        }
        throw new FlinkConnectorException(
                (matching.isEmpty() ? "no" : matching.size() + "")
                        + " running Flink job"
                        + (idOrName == null ? "s" : "s named '" + idOrName + "'")
                        + " at "
                        + rest.base()
                        + (matching.isEmpty() ? "" : " (expected exactly one)")
                        + "; running: "
                        + (running.isEmpty() ? "none" : String.join(", ", running))
                        + "; pass --job with a job id or a unique name");
    }

    public FlinkRestClient rest() {
        return rest;
    }

    public String jobId() {
        return jobId;
    }

    void moveTo(String newJobId) {
        this.jobId = Objects.requireNonNull(newJobId, "new Flink job id");
    }

    public FlinkJob read() {
        return FlinkJob.read(rest, jobId);
    }

    @Override
    public String toString() {
        return "Flink job " + jobId + " at " + rest.base();
    }
}
