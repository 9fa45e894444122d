package dev.flowscale.flink;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A Flink job as its REST API shows it ({@code GET jobs/:id} and {@code GET jobs/:id/plan}): its
 * vertices and the edges between them. flowscale scales job vertices: a chain of operators runs as
 * one task, at one parallelism, and Flink reports busy time per task. Operators are named after
 * their vertices ("Count -> Counts: Writer"), with the vertex id's first digits added when two
 * vertices share a name.
 *
 * @param scheduler Flink's {@code schedulerType} (e.g. Adaptive, Default); empty where the version
 *     does not report it (before 1.19)
 */
public record FlinkJob(
        String id,
        String name,
        String state,
        Optional<String> scheduler,
        List<FlinkVertex> vertices,
        List<Edge> edges) {

    public FlinkJob {
        vertices = List.copyOf(vertices);
        edges = List.copyOf(edges);
    }

    /** Reads the job's details and plan. */
    public static FlinkJob read(FlinkRestClient rest, String jobId) {
        JsonNode details = rest.get("jobs/" + jobId);
        JsonNode plan = rest.get("jobs/" + jobId + "/plan").path("plan");
        Map<String, String> names = operatorIds(details.path("vertices"));
        List<FlinkVertex> vertices = new ArrayList<>();
        for (JsonNode v : details.path("vertices")) {
            String id = v.path("id").asText();
            vertices.add(
                    new FlinkVertex(
                            id,
                            names.get(id),
                            v.path("parallelism").asInt(),
                            v.path("maxParallelism").asInt(v.path("parallelism").asInt()),
                            status(v),
                            v.path("slotSharingGroupId").asText("")));
        }
        if (vertices.isEmpty()) {
            throw new FlinkConnectorException(
                    "GET "
                            + rest.base()
                            + "jobs/"
                            + jobId
                            + " answered a job without vertices: "
                            + details);
        }
        return new FlinkJob(
                jobId,
                details.path("name").asText(jobId),
                details.path("state").asText(),
                Optional.ofNullable(details.get("schedulerType")).map(JsonNode::asText),
                vertices,
                edges(plan, names));
    }

    /** RUNNING only once every subtask runs: Flink calls a vertex RUNNING when one of them does. */
    private static String status(JsonNode vertex) {
        String status = vertex.path("status").asText();
        int running = vertex.path("tasks").path("RUNNING").asInt(-1);
        boolean partly = running >= 0 && running < vertex.path("parallelism").asInt();
        return "RUNNING".equals(status) && partly ? "DEPLOYING" : status;
    }

    private static Map<String, String> operatorIds(JsonNode vertices) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        vertices.forEach(v -> seen.merge(v.path("name").asText(), 1, Integer::sum));
        Map<String, String> ids = new LinkedHashMap<>();
        for (JsonNode v : vertices) {
            String name = v.path("name").asText();
            String id = v.path("id").asText();
            ids.put(id, seen.get(name) > 1 ? name + " #" + id.substring(0, 6) : name);
        }
        return ids;
    }

    private static List<Edge> edges(JsonNode plan, Map<String, String> names) {
        List<Edge> edges = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (JsonNode node : plan.path("nodes")) {
            String to = names.get(node.path("id").asText());
            for (JsonNode input : node.path("inputs")) {
                String from = names.get(input.path("id").asText());
                if (from != null && to != null && seen.add(from + "\n" + to)) {
                    edges.add(new Edge(from, to));
                }
            }
        }
        return edges;
    }

    /** The job as the policy sees it; a source's bound is {@code sourceLimits} where known. */
    public JobTopology topology(Map<String, Integer> sourceLimits) {
        List<OperatorSpec> ops = new ArrayList<>();
        for (FlinkVertex v : vertices) {
            int limit =
                    Math.min(
                            v.maxParallelism(),
                            sourceLimits.getOrDefault(v.id(), Integer.MAX_VALUE));
            ops.add(
                    new OperatorSpec(
                            v.operatorId(), v.parallelism(), Math.max(limit, v.parallelism())));
        }
        return new JobTopology(name, ops, edges);
    }

    public FlinkVertex vertex(String operatorId) {
        return vertices.stream()
                .filter(v -> v.operatorId().equals(operatorId))
                .findFirst()
                .orElseThrow(
                        () ->
                                new FlinkConnectorException(
                                        "Flink job '"
                                                + name
                                                + "' ("
                                                + id
                                                + ") has no vertex '"
                                                + operatorId
                                                + "'; its vertices are "
                                                + vertices.stream()
                                                        .map(FlinkVertex::operatorId)
                                                        .toList()));
    }

    public boolean isSource(FlinkVertex vertex) {
        return edges.stream().noneMatch(e -> e.to().equals(vertex.operatorId()));
    }

    /** Parallelism per operator id. */
    public Map<String, Integer> parallelism() {
        Map<String, Integer> result = new LinkedHashMap<>();
        vertices.forEach(v -> result.put(v.operatorId(), v.parallelism()));
        return result;
    }

    public boolean running() {
        return "RUNNING".equals(state);
    }

    /** Whether every vertex runs all its subtasks (after a rescale, at their new parallelism). */
    public boolean allVerticesRunning() {
        return running() && vertices.stream().allMatch(FlinkVertex::running);
    }
}
