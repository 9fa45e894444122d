package dev.flowscale.bench;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.window.WindowRates;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.settings.SettingValues;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the autoscaler makes of one measurement of a job on the engine: the metrics window the
 * autoscaler computes from two samples of the instances' counters ({@link WindowRates}, with each
 * operator's wait for a core), its sources' offered rate set to a target, and the DS2 policy's
 * decision on it (default settings, no rescale before; the need confirmed by a second window, as
 * the loop does).
 */
record ChainDecision(
        MetricsWindow window, ScalingDecision decision, Map<String, Double> perCpuSecond) {
    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    static ChainDecision of(
            JobGraph graph, JobMetricsSnapshot from, JobMetricsSnapshot to, double target) {
        JobTopology topology = topology(graph);
        MetricsWindow measured =
                WindowRates.between(sample(topology, from), sample(topology, to)).window();
        MetricsWindow window =
                MetricsWindow.of(
                        measured.start(),
                        measured.end(),
                        measured.operators().values().stream()
                                .map(m -> m.source().isPresent() ? m.withSource(target, 0.0) : m)
                                .toList());
        Ds2Policy policy =
                new Ds2Policy(
                        SettingValues.defaults().policy(),
                        Clock.fixed(window.end(), ZoneOffset.UTC));
        ScalingDecision first = policy.decide(topology, window, ScalingHistory.empty());
        ScalingDecision decision =
                first.isBlocked(BlockReason.NEED_UNCONFIRMED)
                        ? policy.decide(
                                topology, window, new ScalingHistory(List.of(first), List.of()))
                        : first;
        return new ChainDecision(window, decision, perCpuSecond(graph, from, to));
    }

    /**
     * Each operator's records per second of its CPU time (a chained operator's part of its
     * thread's, by its useful share): the rate it would sustain on a core of its own, which a
     * loaded machine does not stretch; NaN where the CPU time is not known.
     */
    private static Map<String, Double> perCpuSecond(
            JobGraph graph, JobMetricsSnapshot from, JobMetricsSnapshot to) {
        Map<String, Double> rates = new HashMap<>();
        for (String op : graph.topologicalOrder()) {
            long records = 0;
            double cpu = 0;
            for (InstanceCounts b : to.instancesOf(op)) {
                InstanceCounts a = from.find(op, b.instance());
                records += b.recordsIn() - a.recordsIn();
                cpu +=
                        a.cpuNanos() == null || b.cpuNanos() == null
                                ? Double.NaN
                                : b.cpuNanos() - a.cpuNanos();
            }
            rates.put(op, records / (cpu / 1e9));
        }
        return rates;
    }

    /** The operator's true processing rate as measured, records per second. */
    double trueProcessingRate(String op) {
        return operator(op).trueProcessingRate();
    }

    /**
     * The true processing rate over useful time less the wait for a core, as the policy takes it
     * (the share capped at 0.9, as the policy does); the measured rate where the wait is unknown.
     */
    double coreWaitCorrected(String op) {
        Double share = operator(op).coreWaitShare();
        double rate = operator(op).trueProcessingRate();
        return share == null ? rate : rate / (1 - Math.min(0.9, share));
    }

    /** The decided parallelism of the operator, "-" where the decision has none. */
    String parallelism(String op) {
        var d = decision.operators().get(op);
        return d == null ? "-" : Integer.toString(d.newParallelism());
    }

    private OperatorMetrics operator(String op) {
        return window.metrics(op)
                .orElseThrow(() -> new IllegalStateException("no metrics for operator " + op));
    }

    private static JobTopology topology(JobGraph graph) {
        List<OperatorSpec> specs =
                graph.topologicalOrder().stream()
                        .map(op -> graph.operator(op))
                        .map(op -> new OperatorSpec(op.id(), op.parallelism(), graph.keyGroups()))
                        .toList();
        List<Edge> edges = graph.edges().stream().map(e -> new Edge(e.from(), e.to())).toList();
        return new JobTopology(graph.jobName(), specs, edges);
    }

    private static MetricsSample sample(JobTopology topology, JobMetricsSnapshot snapshot) {
        return new MetricsSample(
                topology,
                EPOCH.plusNanos(snapshot.timeNanos()),
                snapshot.runId(),
                snapshot.instances());
    }
}
