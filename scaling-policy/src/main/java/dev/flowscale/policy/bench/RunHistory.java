package dev.flowscale.policy.bench;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.Reasons;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.SourceRateLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The history a loop hands the policy after running a job for {@code span}: one decision per policy
 * interval (the loop keeps the last {@code kept}), a rescale every two hours that moved a third of
 * the operators by one instance (the latest an hour before the end), and a per-minute log of the
 * sources' offered rates. Every decision records each operator's capacity with a few per cent of
 * noise; a tenth of the operators recommend one instance fewer all along (a trim held back).
 */
final class RunHistory {

    static final Duration RESCALE_EVERY = Duration.ofHours(2);

    private RunHistory() {}

    static ScalingHistory of(
            DecisionBenchmark.RandomDag dag,
            Instant end,
            Duration span,
            Duration interval,
            int kept,
            Random random) {
        List<Instant> rescales = rescaleTimes(end, span);
        Map<String, Integer> parallelism = parallelism(dag.topology(), rescales.size());
        Deque<ScalingDecision> decisions = new ArrayDeque<>();
        List<RescaleRecord> records = new ArrayList<>();
        int next = 0;
        long count = span.dividedBy(interval);
        for (long k = count; k >= 1; k--) {
            Instant at = end.minus(interval.multipliedBy(k));
            if (next < rescales.size() && !at.isBefore(rescales.get(next))) {
                Instant started = rescales.get(next++);
                parallelism = parallelism(dag.topology(), rescales.size() - next);
                records.add(
                        RescaleRecord.started(started, Map.copyOf(parallelism))
                                .finishedAt(started.plusSeconds(30), false));
            }
            decisions.addLast(decision(dag, at, parallelism, random));
            if (decisions.size() > kept) {
                decisions.pollFirst();
            }
        }
        return new ScalingHistory(
                List.copyOf(decisions),
                records.subList(Math.max(0, records.size() - kept), records.size()),
                rateLog(dag.topology(), end, span, random));
    }

    /** Rescale times, oldest first: an hour before the end, then every two hours back. */
    private static List<Instant> rescaleTimes(Instant end, Duration span) {
        List<Instant> times = new ArrayList<>();
        for (Instant t = end.minus(Duration.ofHours(1));
                !t.isBefore(end.minus(span));
                t = t.minus(RESCALE_EVERY)) {
            times.add(0, t);
        }
        return times;
    }

    /**
     * Parallelism per operator with {@code ahead} rescales still to come: every third operator ran
     * one instance above the window's parallelism before the latest rescale (a trim), at it before
     * the one before (a scale-up), and so on.
     */
    private static Map<String, Integer> parallelism(JobTopology topology, int ahead) {
        Map<String, Integer> parallelism = new HashMap<>();
        List<OperatorSpec> ops = topology.operators();
        for (int i = 0; i < ops.size(); i++) {
            int p = ops.get(i).parallelism();
            parallelism.put(ops.get(i).id(), i % 3 == 0 ? p + ahead % 2 : p);
        }
        return parallelism;
    }

    private static ScalingDecision decision(
            DecisionBenchmark.RandomDag dag,
            Instant at,
            Map<String, Integer> parallelism,
            Random random) {
        List<OperatorDecision> ops = new ArrayList<>();
        // reasons as the policy hands them over (a Reasons being built): the history's decisions
        // then take the same paths through OperatorDecision as the policy's own
        Reasons kept = new Reasons();
        kept.add("kept");
        // in topological order, as the policy lists a decision's operators
        for (String id : dag.topology().topologicalOrder()) {
            OperatorMetrics m = dag.window().operators().get(id);
            int p = parallelism.get(m.operatorId());
            double perInstance =
                    m.trueProcessingRate() / m.parallelism() * (1 + 0.03 * random.nextGaussian());
            int recommended = m.operatorId().hashCode() % 10 == 0 && p > 1 ? p - 1 : p;
            double target = m.observedProcessingRate();
            ops.add(
                    new OperatorDecision(
                            m.operatorId(),
                            p,
                            p,
                            recommended,
                            target,
                            perInstance,
                            target / (p * perInstance),
                            0,
                            kept));
        }
        return ScalingDecision.of(at, dag.topology().jobName(), List.of("history"), ops);
    }

    private static SourceRateLog rateLog(
            JobTopology topology, Instant end, Duration span, Random random) {
        int buckets = (int) Math.min(span.toMinutes(), 4 * 24 * 60);
        Map<String, SourceRateLog.Series> series = new HashMap<>();
        for (String id : topology.sources()) {
            double[] means = new double[buckets];
            for (int i = 0; i < buckets; i++) {
                means[i] = 1_000 * (1 + 0.05 * random.nextGaussian());
            }
            series.put(id, new SourceRateLog.Series(end.minus(Duration.ofMinutes(buckets)), means));
        }
        return buckets == 0
                ? SourceRateLog.EMPTY
                : new SourceRateLog(Duration.ofMinutes(1), series);
    }
}
