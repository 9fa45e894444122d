package dev.flowscale.comparison;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.autoscaler.JobAutoScalerContext;
import org.apache.flink.autoscaler.realizer.ScalingRealizer;
import org.apache.flink.autoscaler.tuning.ConfigChanges;
import org.apache.flink.runtime.jobgraph.JobVertexID;

/**
 * Carries out the Flink autoscaler's parallelism overrides on the simulated job, as the Kubernetes
 * operator does: the autoscaler hands over the full override map on every call, and only a map that
 * differs from the running parallelism triggers a restart (down for {@code downtime}). Each restart
 * is recorded as a {@link ScalingDecision} so both policies yield the same trajectory.
 */
final class SimulatedScalingRealizer
        implements ScalingRealizer<String, JobAutoScalerContext<String>> {

    private final SimulatedJobView job;
    private final Duration downtime;
    private final Clock clock;
    private final List<ScalingDecision> decisions = new ArrayList<>();

    SimulatedScalingRealizer(SimulatedJobView job, Duration downtime, Clock clock) {
        this.job = job;
        this.downtime = downtime;
        this.clock = clock;
    }

    @Override
    public void realizeParallelismOverrides(
            JobAutoScalerContext<String> context, Map<String, String> overrides) {
        if (job.model().isRescaling()) {
            return;
        }
        Map<String, Integer> current = job.model().topology().parallelism();
        Map<String, Integer> target = new LinkedHashMap<>(current);
        overrides.forEach(
                (vertex, p) -> {
                    String operator = job.operator(JobVertexID.fromHexString(vertex));
                    if (operator != null) {
                        target.put(operator, Integer.parseInt(p));
                    }
                });
        if (!target.equals(current)) {
            decisions.add(decision(current, target));
            job.model().rescale(target, downtime);
        }
    }

    private ScalingDecision decision(Map<String, Integer> current, Map<String, Integer> target) {
        List<OperatorDecision> ops = new ArrayList<>();
        target.forEach(
                (id, p) ->
                        ops.add(
                                new OperatorDecision(
                                        id,
                                        current.get(id),
                                        p,
                                        p,
                                        0,
                                        0,
                                        0,
                                        0,
                                        List.of("flink-autoscaler parallelism override"))));
        return ScalingDecision.of(
                clock.instant(), job.scenario().name(), List.of("flink-autoscaler"), ops);
    }

    /**
     * Memory tuning is off by default ({@code job.autoscaler.memory.tuning.enabled}); nothing to
     * apply.
     */
    @Override
    public void realizeConfigOverrides(
            JobAutoScalerContext<String> context, ConfigChanges configChanges) {
        if (!configChanges.getOverrides().isEmpty()) {
            throw new IllegalStateException(
                    "the simulator has no TaskManager memory to tune; disable"
                            + " job.autoscaler.memory.tuning.enabled (got "
                            + configChanges.getOverrides()
                            + ")");
        }
    }

    List<ScalingDecision> decisions() {
        return List.copyOf(decisions);
    }
}
