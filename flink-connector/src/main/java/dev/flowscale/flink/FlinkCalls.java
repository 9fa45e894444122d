package dev.flowscale.flink;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Single REST calls a rescale of a session cluster's job is made of, none of which waits: set the
 * adaptive scheduler's resource requirements, trigger a stop with a savepoint and ask how it went,
 * run the jar from a savepoint with parallelism overrides, list the runs a rescale started, and
 * cancel one. A caller that must survive its own restart records what each call returned (the
 * trigger id, the savepoint, the new run's id) before the next one; {@link FlinkSteps} strings them
 * together with waits for the blocking rescaler.
 */
public final class FlinkCalls {
    static final String OVERRIDES = "pipeline.jobvertex-parallelism-overrides";

    private final FlinkRestClient rest;

    public FlinkCalls(FlinkRestClient rest) {
        this.rest = rest;
    }

    /** How a stop-with-savepoint went: not finished yet, its location, or why it failed. */
    public record Savepoint(boolean finished, Optional<String> location, Optional<String> failure) {
        static final Savepoint IN_PROGRESS =
                new Savepoint(false, Optional.empty(), Optional.empty());
    }

    /**
     * {@code PUT jobs/:id/resource-requirements}: every vertex, lower bound 1, upper its target.
     */
    public void requireParallelism(String jobId, Map<String, Integer> byVertexId) {
        Map<String, Object> body = new LinkedHashMap<>();
        byVertexId.forEach(
                (vertex, p) ->
                        body.put(
                                vertex,
                                Map.of("parallelism", Map.of("lowerBound", 1, "upperBound", p))));
        rest.put("jobs/" + jobId + "/resource-requirements", body);
    }

    /** The adaptive scheduler's upper bounds by vertex id ({@code GET resource-requirements}). */
    public Map<String, Integer> requiredParallelism(String jobId) {
        Map<String, Integer> result = new LinkedHashMap<>();
        rest.get("jobs/" + jobId + "/resource-requirements")
                .fields()
                .forEachRemaining(
                        e ->
                                result.put(
                                        e.getKey(),
                                        e.getValue()
                                                .path("parallelism")
                                                .path("upperBound")
                                                .asInt()));
        return result;
    }

    /** {@code POST jobs/:id/stop} without draining; returns the trigger's request id. */
    public String triggerStop(String jobId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("drain", false);
        String trigger = rest.post("jobs/" + jobId + "/stop", body).path("request-id").asText("");
        if (trigger.isEmpty()) {
            throw new FlinkConnectorException(
                    "POST jobs/" + jobId + "/stop answered no request-id; check the Flink version");
        }
        return trigger;
    }

    /** {@code GET jobs/:id/savepoints/:trigger}: how the stop-with-savepoint went. */
    public Savepoint savepoint(String jobId, String trigger) {
        JsonNode answer = rest.get("jobs/" + jobId + "/savepoints/" + trigger);
        if (!"COMPLETED".equals(answer.path("status").path("id").asText())) {
            return Savepoint.IN_PROGRESS;
        }
        JsonNode operation = answer.path("operation");
        if (operation.hasNonNull("location")) {
            return new Savepoint(
                    true, Optional.of(operation.path("location").asText()), Optional.empty());
        }
        String why =
                operation
                        .path("failure-cause")
                        .path("stack-trace")
                        .asText("")
                        .lines()
                        .findFirst()
                        .orElse(operation.toString());
        return new Savepoint(true, Optional.empty(), Optional.of(why));
    }

    /**
     * The latest savepoint the job completed, from its checkpoint statistics: the way back to a
     * stop whose trigger id was lost (the caller died between the stop and recording it).
     */
    public Optional<String> latestSavepoint(String jobId) {
        JsonNode latest = rest.get("jobs/" + jobId + "/checkpoints").path("latest");
        return Optional.ofNullable(latest.path("savepoint").get("external_path"))
                .map(JsonNode::asText)
                .filter(
                        path ->
                                !path.isBlank()
                                        && !"<checkpoint-not-externally-addressable>".equals(path));
    }

    /** Runs the jar from {@code savepoint} at the given parallelism; returns the new job id. */
    public String runJar(JarResubmission jar, String savepoint, Map<String, Integer> byVertexId) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (jar.entryClass() != null) {
            body.put("entryClass", jar.entryClass());
        }
        body.put("programArgsList", jar.programArgs());
        body.put("savepointPath", savepoint);
        body.put("allowNonRestoredState", false);
        body.put("flinkConfiguration", Map.of(OVERRIDES, overrides(byVertexId)));
        String id = rest.post("jars/" + jar.jarId() + "/run", body).path("jobid").asText("");
        if (id.isEmpty()) {
            throw new FlinkConnectorException(
                    "POST jars/"
                            + jar.jarId()
                            + "/run answered no job id; check the jar and its arguments");
        }
        return id;
    }

    static String overrides(Map<String, Integer> byVertexId) {
        return byVertexId.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue())
                .collect(Collectors.joining(","));
    }

    /** Ids of the runs named {@code name} that started at or after {@code since} and not ended. */
    public List<String> runsSince(String name, Instant since) {
        List<String> runs = new ArrayList<>();
        for (JsonNode run : rest.get("jobs/overview").path("jobs")) {
            if (name.equals(run.path("name").asText())
                    && run.path("start-time").asLong() >= since.toEpochMilli()
                    && !terminal(run.path("state").asText())) {
                runs.add(run.path("jid").asText());
            }
        }
        return runs;
    }

    /** Asks Flink to cancel the run unless it ended; true once it has ended. */
    public boolean cancel(String jobId) {
        if (terminal(rest.get("jobs/" + jobId).path("state").asText())) {
            return true;
        }
        rest.patch("jobs/" + jobId + "?mode=cancel");
        return false;
    }

    /**
     * Whether the job runs Flink's adaptive scheduler, which rescales in place. Flink before 1.19
     * names no scheduler; only the adaptive one answers {@code resource-requirements} there.
     */
    public boolean adaptive(FlinkJob now) {
        if (now.scheduler().isPresent()) {
            return "Adaptive".equalsIgnoreCase(now.scheduler().get());
        }
        try {
            rest.get("jobs/" + now.id() + "/resource-requirements");
            return true;
        } catch (FlinkConnectorException e) {
            return false;
        }
    }

    /**
     * Why the job cannot run at {@code changes} (by operator id), before anything is touched: above
     * a vertex's key groups or a source's splits.
     */
    public Optional<String> refused(FlinkJob now, Map<String, Integer> changes) {
        return RescaleLimits.check(new FlinkJobRef(rest, now.id()), now, changes);
    }

    /** {@code byOperator} (operator ids) by vertex id; vertices it leaves out keep theirs. */
    public static Map<String, Integer> byVertex(FlinkJob now, Map<String, Integer> byOperator) {
        Map<String, Integer> result = new LinkedHashMap<>();
        now.vertices()
                .forEach(
                        v ->
                                result.put(
                                        v.id(),
                                        byOperator.getOrDefault(v.operatorId(), v.parallelism())));
        return result;
    }

    /** Whether every vertex runs at its target (by vertex id; vertices left out at any). */
    public static boolean runsAt(FlinkJob job, Map<String, Integer> byVertexId) {
        return job.vertices().stream()
                .allMatch(v -> byVertexId.getOrDefault(v.id(), v.parallelism()) == v.parallelism());
    }

    public static boolean terminal(String state) {
        return "FAILED".equals(state) || "CANCELED".equals(state) || "FINISHED".equals(state);
    }
}
