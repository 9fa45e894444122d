package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DS2 sizing of every operator for a rescale that costs the expected downtime: {@link #needed()}
 * also drains the backlog owed now; {@link #trim()} plans only the downtime of one rescale, the
 * spare capacity any configuration needs to recover from its own rescale within the catch-up time.
 */
final class Plan {

    private final JobTopology topology;
    private final MetricsWindow window;
    private final Map<String, Ds2Formula.Estimate> required;
    private final PolicyConfig config;
    private final RescaleCost cost;

    Plan(JobTopology topology, MetricsWindow window, Map<String, Ds2Formula.Estimate> required, PolicyConfig config,
            RescaleCost cost) {
        this.topology = topology;
        this.window = window;
        this.required = required;
        this.config = config;
        this.cost = cost;
    }

    List<OperatorDecision> needed() {
        return size(true, 1);
    }

    List<OperatorDecision> trim() {
        return size(false, 1);
    }

    private List<OperatorDecision> size(boolean drainOwed, double margin) {
        Map<String, SourceTarget> sources = SourceTarget.of(topology, window, config, cost.seconds(), drainOwed);
        Map<String, Ds2Formula.Estimate> planned = Ds2Formula.estimate(topology, window, SourceTarget.rates(sources));
        List<OperatorDecision> ops = new ArrayList<>();
        planned.forEach((id, e) -> ops.add(Sizing.recommend(topology.operator(id), window.metrics(id).orElseThrow(),
                required.get(id), e, sources.get(id), config, margin)));
        return ops;
    }
}
