package dev.flowscale.collector.source;

import dev.flowscale.collector.api.InstanceCounters;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.InstanceSnapshot;
import dev.flowscale.engine.runner.JobView;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import java.util.List;

/** Translates the engine's graph, job view and snapshots into the policy's and collector's model. */
final class EngineModel {
    private static final double NANOS = 1e9;

    private EngineModel() {
    }

    static JobTopology topology(JobGraph graph) {
        List<OperatorSpec> ops = graph.topologicalOrder().stream().map(graph::operator)
                .map(op -> new OperatorSpec(op.id(), op.parallelism(), graph.maxParallelism())).toList();
        List<Edge> edges = graph.edges().stream().map(e -> new Edge(e.from(), e.to())).toList();
        return new JobTopology(graph.jobName(), ops, edges);
    }

    static JobTopology topology(JobView view) {
        List<OperatorSpec> ops = view.operators().stream()
                .map(op -> new OperatorSpec(op.id(), op.parallelism(), view.maxParallelism())).toList();
        List<Edge> edges = view.edges().stream().map(e -> new Edge(e.from(), e.to())).toList();
        return new JobTopology(view.name(), ops, edges);
    }

    static List<InstanceCounters> counters(List<InstanceSnapshot> snapshots) {
        return snapshots.stream().map(EngineModel::counters).toList();
    }

    static InstanceCounters counters(InstanceSnapshot s) {
        return new InstanceCounters(s.operatorId(), s.instance(), s.recordsIn(), s.recordsOut(),
                s.usefulNanos() / NANOS, s.waitInputNanos() / NANOS, s.backpressureNanos() / NANOS,
                s.observedNanos() / NANOS, s.backlog(), s.finished());
    }
}
