package dev.flowscale.autoscaler.metrics;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.runner.api.JobView;
import java.util.List;

/**
 * Translates the runner API's job into the policy's topology: the one translation of every source
 * that reads a runner's views (over HTTP, or in process in the CLI). Their counters need none: a
 * sample holds the runner's {@code MetricsView.InstanceCounts} as served.
 */
public final class RunnerModel {
    private RunnerModel() {}

    public static JobTopology topology(JobView view) {
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
}
