package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Rejects windows DS2 must not act on: missing operators, stale windows, and NaN, infinite,
 * negative or mutually inconsistent values. The first problem found is reported.
 */
final class MetricsValidator {

    private static final double TOLERANCE = 1e-6;

    private MetricsValidator() {}

    /**
     * @param inOrder the window's metrics by topological position, null where an operator has none
     *     ({@link Ds2Formula#withGaps})
     */
    static Optional<Problem> check(
            JobTopology topology,
            MetricsWindow window,
            OperatorMetrics[] inOrder,
            Instant now,
            PolicyConfig config) {
        Duration age = Duration.between(window.end(), now);
        if (age.compareTo(config.maxMetricsAge()) > 0) {
            return problem(
                    BlockReason.METRICS_STALE,
                    "metrics window ended "
                            + age.toSeconds()
                            + " s ago, more than maxMetricsAge "
                            + config.maxMetricsAge().toSeconds()
                            + " s");
        }
        // the operators in topological order, walked by position: no lookup by id per operator
        List<String> order = topology.topologicalOrder();
        List<OperatorSpec> specs = topology.operators();
        for (int i = 0; i < order.size(); i++) {
            String id = order.get(i);
            Optional<Problem> p =
                    inOrder[i] == null
                            ? problem(
                                    BlockReason.METRICS_MISSING,
                                    "operator '" + id + "' has no metrics in the window")
                            : checkOperator(
                                    specs.get(i), topology.isSourceAt(i), inOrder[i], config);
            if (p.isPresent()) {
                return p;
            }
        }
        return Optional.empty();
    }

    private static Optional<Problem> checkOperator(
            OperatorSpec spec, boolean source, OperatorMetrics m, PolicyConfig config) {
        String id = m.operatorId();
        int running = spec.parallelism();
        if (m.parallelism() != running) {
            return problem(
                    BlockReason.METRICS_STALE,
                    "operator '"
                            + id
                            + "' metrics were measured at parallelism "
                            + m.parallelism()
                            + " but it runs at "
                            + running);
        }
        Optional<Problem> p =
                finite(id, "trueProcessingRate", m.trueProcessingRate())
                        .or(() -> finite(id, "trueOutputRate", m.trueOutputRate()))
                        .or(() -> finite(id, "observedProcessingRate", m.observedProcessingRate()))
                        .or(() -> finite(id, "observedOutputRate", m.observedOutputRate()))
                        .or(() -> consistent(id, m))
                        .or(() -> source ? checkSource(m, config) : Optional.empty());
        return p.isPresent() ? p : checkInstances(m).or(() -> checkKeyGroups(spec, m));
    }

    /**
     * Per-key-group rates are optional; given, there is one finite, non-negative rate per key
     * group.
     */
    private static Optional<Problem> checkKeyGroups(OperatorSpec spec, OperatorMetrics m) {
        List<Double> rates = m.keyGroupRates();
        int keyGroups = spec.keyGroups();
        if (rates.isEmpty()) {
            return Optional.empty();
        }
        if (rates.size() != keyGroups) {
            return invalid(
                    m.operatorId(),
                    "reports rates of "
                            + rates.size()
                            + " key groups but has "
                            + keyGroups
                            + " (its max parallelism); report one rate per key group or none");
        }
        for (int g = 0; g < rates.size(); g++) {
            Optional<Problem> p = finite(m.operatorId(), "key group " + g + " rate", rates.get(g));
            if (p.isPresent()) {
                return p;
            }
        }
        return Optional.empty();
    }

    private static Optional<Problem> consistent(String id, OperatorMetrics m) {
        if (m.trueProcessingRate() == 0
                && (m.observedProcessingRate() > 0 || m.trueOutputRate() > 0)) {
            return invalid(
                    id, "processed records but reports zero useful time (trueProcessingRate 0)");
        }
        if (m.trueOutputRate() == 0 && m.observedOutputRate() > 0) {
            return invalid(id, "emitted records but reports zero useful time (trueOutputRate 0)");
        }
        if (below(m.trueProcessingRate(), m.observedProcessingRate())
                || below(m.trueOutputRate(), m.observedOutputRate())) {
            return invalid(
                    id, "true rate below observed rate: useful time would exceed the window");
        }
        return Optional.empty();
    }

    private static boolean below(double trueRate, double observedRate) {
        return trueRate < observedRate * (1 - TOLERANCE);
    }

    /** Checks of a source's metrics (the operator at its position has no inputs). */
    private static Optional<Problem> checkSource(OperatorMetrics m, PolicyConfig config) {
        String id = m.operatorId();
        if (m.source().isEmpty()) {
            return config.sourceTargetRates().containsKey(id)
                    ? Optional.empty()
                    : problem(
                            BlockReason.METRICS_MISSING,
                            "source '"
                                    + id
                                    + "' reports no offered rate or backlog;"
                                    + " report them or configure its target rate");
        }
        if (!m.source().get().hasBacklogSignal()) {
            return problem(
                    BlockReason.METRICS_MISSING,
                    "source '"
                            + id
                            + "' has no lag signal: a reader does not know what it owes yet"
                            + " (a Kafka partition whose log end it has not learnt, or brokers"
                            + " that do not answer); holding, since an unknown backlog is not"
                            + " zero backlog");
        }
        return finite(id, "offeredRate", m.source().get().offeredRate())
                .or(() -> finite(id, "backlogRecords", m.source().get().backlogRecords()));
    }

    private static Optional<Problem> checkInstances(OperatorMetrics m) {
        if (m.instances().isEmpty()) {
            return Optional.empty();
        }
        String id = m.operatorId();
        if (m.instances().size() != m.parallelism()) {
            return invalid(
                    id,
                    "reports "
                            + m.instances().size()
                            + " instances at parallelism "
                            + m.parallelism());
        }
        double sum = 0;
        for (InstanceWindowRates i : m.instances()) {
            if (!valid(i)) {
                return instanceProblem(id, i);
            }
            sum += i.trueProcessingRate();
        }
        if (Math.abs(sum - m.trueProcessingRate()) > TOLERANCE * Math.max(1, sum)) {
            return invalid(
                    id,
                    "instance true processing rates sum to "
                            + sum
                            + " but the aggregate is "
                            + m.trueProcessingRate());
        }
        return Optional.empty();
    }

    /**
     * Whether every rate of the instance is finite and not negative: checked without building the
     * field names, which a decision on a large graph would otherwise build for every instance.
     */
    private static boolean valid(InstanceWindowRates i) {
        return valid(i.trueProcessingRate())
                && valid(i.trueOutputRate())
                && valid(i.observedProcessingRate())
                && valid(i.observedOutputRate());
    }

    private static boolean valid(double value) {
        return Double.isFinite(value) && value >= 0;
    }

    /** The first invalid rate of an instance that is not {@link #valid(InstanceWindowRates)}. */
    private static Optional<Problem> instanceProblem(String id, InstanceWindowRates i) {
        String at = "instance " + i.index() + " ";
        return finite(id, at + "trueProcessingRate", i.trueProcessingRate())
                .or(() -> finite(id, at + "trueOutputRate", i.trueOutputRate()))
                .or(() -> finite(id, at + "observedProcessingRate", i.observedProcessingRate()))
                .or(() -> finite(id, at + "observedOutputRate", i.observedOutputRate()));
    }

    private static Optional<Problem> finite(String id, String field, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return invalid(id, field + " is " + value);
        }
        return value < 0 ? invalid(id, field + " is negative (" + value + ")") : Optional.empty();
    }

    private static Optional<Problem> invalid(String id, String what) {
        return problem(BlockReason.METRICS_INVALID, "operator '" + id + "' " + what);
    }

    private static Optional<Problem> problem(BlockReason reason, String message) {
        return Optional.of(new Problem(reason, message));
    }
}
