package dev.flowscale.collector.source;

import dev.flowscale.collector.api.InstanceCounters;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.MetricsView;
import java.util.List;

/** Translates the runner API's job and counters into the policy's and collector's model. */
final class RunnerModel {
    private static final double NANOS = 1e9;

    private RunnerModel() {}

    static JobTopology topology(JobView view) {
        List<OperatorSpec> ops =
                view.operators().stream()
                        .map(
                                op ->
                                        new OperatorSpec(
                                                op.id(),
                                                op.parallelism(),
                                                view.keyGroups(),
                                                op.splits() == null ? 0 : op.splits()))
                        .toList();
        List<Edge> edges = view.edges().stream().map(e -> new Edge(e.from(), e.to())).toList();
        return new JobTopology(view.name(), ops, edges);
    }

    static List<InstanceCounters> counters(List<MetricsView.InstanceCounts> instances) {
        return instances.stream().map(RunnerModel::counters).toList();
    }

    private static InstanceCounters counters(MetricsView.InstanceCounts c) {
        return new InstanceCounters(
                c.operatorId(),
                c.instance(),
                c.recordsIn(),
                c.recordsOut(),
                c.usefulNanos() / NANOS,
                c.waitInputNanos() / NANOS,
                c.backpressureNanos() / NANOS,
                c.observedNanos() / NANOS,
                c.backlogUnknown() ? InstanceCounters.NO_BACKLOG_SIGNAL : c.backlog(),
                c.finished(),
                c.keyGroupFirst(),
                c.keyGroupRecords(),
                seconds(c.cpuNanos()),
                seconds(c.coreWaitNanos()));
    }

    private static double seconds(Long nanos) {
        return nanos == null ? InstanceCounters.UNKNOWN_CPU : nanos / NANOS;
    }
}
