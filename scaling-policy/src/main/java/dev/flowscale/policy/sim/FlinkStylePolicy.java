package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.InstanceMetrics;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.SourceMetrics;
import dev.flowscale.policy.ds2.ScaleDownDelay;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * For comparison only: a model of the Flink Kubernetes operator's autoscaler (flink-autoscaler
 * JobVertexScaler / ScalingExecutor) with its defaults. Per vertex: true processing rate =
 * observed rate / busy fraction of the busiest instance; target capacity = catch-up rate + input ×
 * restart time / catch-up duration + input / target utilization; new parallelism = ceil(current ×
 * capacity / true rate), the factor capped at 1 - 0.6 below; no scaling when every changed vertex
 * is within the utilization boundary; scale-downs only after the scale-down interval, then the
 * highest recommendation. Not modelled: ineffective-scale-up detection, key-group alignment,
 * memory tuning, averaging over a 15-minute metrics window.
 */
public final class FlinkStylePolicy implements ScalingPolicy {

    /** The autoscaler's options, defaults as in its AutoScalerOptions. */
    public record Settings(double targetUtilization, double boundary, Duration catchUp, Duration restartTime,
            Duration scaleDownInterval, double maxScaleDownFactor, Duration stabilization) {

        public static Settings defaults() {
            return new Settings(0.7, 0.3, Duration.ofMinutes(30), Duration.ofMinutes(5), Duration.ofHours(1), 0.6,
                    Duration.ofMinutes(5));
        }
    }

    private record Rates(double input, double catchUp, double outputRatio) {
    }

    private final Settings settings;
    private final Clock clock;

    public FlinkStylePolicy(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public ScalingDecision decide(JobTopology topology, MetricsWindow window, ScalingHistory history) {
        Instant now = clock.instant();
        String job = topology.jobName();
        if (history.rescaleInProgress()) {
            return ScalingDecision.blocked(now, job, BlockReason.RESCALE_IN_PROGRESS, "rescale in progress");
        }
        Optional<Instant> finished = history.lastRescale().flatMap(RescaleRecord::finished);
        if (finished.isPresent() && window.start().isBefore(finished.get().plus(settings.stabilization()))) {
            return ScalingDecision.blocked(now, job, BlockReason.WARMING_UP, "within the stabilization interval");
        }
        List<OperatorDecision> ops = new ArrayList<>();
        boolean outsideBoundary = false;
        Map<String, Rates> rates = new HashMap<>();
        for (String id : topology.topologicalOrder()) {
            OperatorMetrics m = window.metrics(id).orElseThrow();
            Rates r = rates(topology, id, m, rates);
            rates.put(id, r);
            OperatorDecision op = vertex(topology.operator(id).maxParallelism(), m, r);
            outsideBoundary |= op.changes() && !withinBoundary(m, r);
            ops.add(op);
        }
        if (ops.stream().anyMatch(OperatorDecision::changes) && !outsideBoundary) {
            return ScalingDecision.withinDeadBand(now, job, List.of("all vertices within the utilization boundary"),
                    ops.stream().map(op -> op.withNewParallelism(op.currentParallelism(), "within boundary")).toList());
        }
        List<OperatorDecision> delayed = ops.stream()
                .map(op -> ScaleDownDelay.apply(op, history, now, settings.scaleDownInterval())).toList();
        if (delayed.stream().noneMatch(OperatorDecision::changes) && delayed.stream().anyMatch(ScaleDownDelay::delayed)) {
            return ScalingDecision.blocked(now, job, BlockReason.SCALE_DOWN_DELAYED, List.of("scale-down interval"), delayed);
        }
        return ScalingDecision.of(now, job, List.of("Flink-autoscaler-style"), delayed);
    }

    private Rates rates(JobTopology t, String id, OperatorMetrics m, Map<String, Rates> upstream) {
        double ratio = m.observedProcessingRate() > 0 ? m.observedOutputRate() / m.observedProcessingRate()
                : m.trueProcessingRate() > 0 ? m.trueOutputRate() / m.trueProcessingRate() : 0;
        if (t.isSource(id)) {
            SourceMetrics s = m.source().orElse(new SourceMetrics(m.observedProcessingRate(), 0));
            double catchUp = settings.catchUp().isZero() ? 0 : s.backlogRecords() / seconds(settings.catchUp());
            return new Rates(s.offeredRate(), catchUp, ratio);
        }
        double input = 0;
        double catchUp = 0;
        for (String up : t.inputsOf(id)) {
            input += upstream.get(up).input() * upstream.get(up).outputRatio();
            catchUp += upstream.get(up).catchUp() * upstream.get(up).outputRatio();
        }
        return new Rates(input, catchUp, ratio);
    }

    private OperatorDecision vertex(int maxParallelism, OperatorMetrics m, Rates r) {
        int p = m.parallelism();
        double trueRate = trueProcessingRate(m);
        if (!(trueRate > 0)) {
            return new OperatorDecision(m.operatorId(), p, p, p, r.input(), 0, 0, 0, List.of("no true processing rate"));
        }
        double restartCatchUp = settings.catchUp().isZero() ? 0
                : r.input() * seconds(settings.restartTime()) / seconds(settings.catchUp());
        double target = Math.round(r.catchUp() + restartCatchUp + r.input() / settings.targetUtilization());
        double factor = Math.max(1 - settings.maxScaleDownFactor(), target / trueRate);
        int newP = (int) Math.max(1, Math.min(maxParallelism, Math.ceil(factor * p)));
        double share = r.catchUp() > 0 ? r.catchUp() / (r.input() + r.catchUp()) : 0;
        return new OperatorDecision(m.operatorId(), p, newP, newP, r.input(), trueRate / p,
                r.input() / (newP * trueRate / p), share,
                List.of(String.format("target capacity %.1f / true processing rate %.1f × %d = %d", target, trueRate, p, newP)));
    }

    private boolean withinBoundary(OperatorMetrics m, Rates r) {
        double trueRate = trueProcessingRate(m);
        double up = Math.round(r.catchUp() + r.input() / (settings.targetUtilization() + settings.boundary()));
        double lower = settings.targetUtilization() - settings.boundary();
        double down = lower <= 0 ? Double.POSITIVE_INFINITY : Math.round(r.catchUp() + r.input() / lower);
        return trueRate >= up && trueRate <= down;
    }

    /** Observed rate over the busy fraction of the busiest instance (busy-time aggregator MAX). */
    private static double trueProcessingRate(OperatorMetrics m) {
        double maxBusy = 0;
        for (InstanceMetrics i : m.instances()) {
            if (i.trueProcessingRate() > 0) {
                maxBusy = Math.max(maxBusy, i.observedProcessingRate() / i.trueProcessingRate());
            }
        }
        if (m.instances().isEmpty() || maxBusy == 0) {
            return m.trueProcessingRate();
        }
        return m.observedProcessingRate() / maxBusy;
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
