package dev.flowscale.comparison;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.sim.DataflowModel;
import dev.flowscale.policy.sim.Scenario;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.autoscaler.topology.IOMetrics;
import org.apache.flink.autoscaler.topology.JobTopology;
import org.apache.flink.autoscaler.topology.ShipStrategy;
import org.apache.flink.autoscaler.topology.VertexInfo;
import org.apache.flink.runtime.jobgraph.JobVertexID;

/**
 * The simulated job as the Flink autoscaler sees it: one job vertex per simulated operator (ids
 * derived from the operator id, so they stay the same across rescales), the current parallelism,
 * and Flink's cumulative I/O metrics since the job's last restart. Edges are REBALANCE: the
 * simulator does not model key-group imbalance, so neither side is asked to align to key groups.
 */
final class SimulatedJobView {

    private final Scenario scenario;
    private final DataflowModel model;
    private final Map<String, JobVertexID> vertexIds = new LinkedHashMap<>();
    private final Map<JobVertexID, String> operatorIds = new HashMap<>();

    SimulatedJobView(Scenario scenario, DataflowModel model) {
        this.scenario = scenario;
        this.model = model;
        for (var op : scenario.operators()) {
            JobVertexID id =
                    JobVertexID.fromHexString(
                            String.format("%032x", op.id().hashCode() & 0xffffffffL));
            if (operatorIds.containsKey(id)) {
                throw new IllegalArgumentException(
                        "operators '"
                                + op.id()
                                + "' and '"
                                + operatorIds.get(id)
                                + "' of scenario '"
                                + scenario.name()
                                + "' map to one job vertex id; rename one");
            }
            vertexIds.put(op.id(), id);
            operatorIds.put(id, op.id());
        }
    }

    DataflowModel model() {
        return model;
    }

    Scenario scenario() {
        return scenario;
    }

    JobVertexID vertex(String operatorId) {
        return vertexIds.get(operatorId);
    }

    String operator(JobVertexID vertex) {
        return operatorIds.get(vertex);
    }

    Map<String, JobVertexID> vertices() {
        return vertexIds;
    }

    Instant runningSince() {
        return model.restartedAt();
    }

    /**
     * The job's topology now, with each vertex's I/O metrics as the REST API's job details carry
     * them.
     */
    JobTopology topology() {
        Map<JobVertexID, Map<JobVertexID, ShipStrategy>> inputs = new LinkedHashMap<>();
        vertexIds.values().forEach(v -> inputs.put(v, new LinkedHashMap<>()));
        for (Edge e : scenario.edges()) {
            inputs.get(vertexIds.get(e.to())).put(vertexIds.get(e.from()), ShipStrategy.REBALANCE);
        }
        return new JobTopology(
                scenario.operators().stream()
                        .map(
                                op -> {
                                    JobVertexID v = vertexIds.get(op.id());
                                    return new VertexInfo(
                                            v,
                                            inputs.get(v),
                                            model.topology().operator(op.id()).parallelism(),
                                            op.keyGroups(),
                                            ioMetrics(op.id()));
                                })
                        .toList());
    }

    private IOMetrics ioMetrics(String operatorId) {
        var c = model.counters(operatorId);
        double busyMs = 0;
        for (double seconds : c.busySeconds()) {
            busyMs += seconds * 1000;
        }
        return new IOMetrics(Math.round(c.recordsIn()), Math.round(c.recordsOut()), busyMs);
    }
}
