package dev.flowscale.autoscaler.window;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.runner.api.Ds2Rates;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.runner.api.Rate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * DS2 rates between two samples of one run, from differences of cumulative counters (never averages
 * of averages): per instance the runner API's {@link Ds2Rates} (λp = Δin / Δuseful, λo = Δout /
 * Δuseful, observed rates divide by Δobserved); per operator the sums. A source's offered rate is
 * what its schedule asked for: (Δread + Δbacklog) / Δobserved, in the records it reads (its records
 * in: the same as its records out on the engine, not on a Flink source chained with a flat map). An
 * operator with an instance missing from either sample is left out of the window, which the policy
 * reports as missing metrics. Rates follow the runner API's {@link Rate} rule: a window without
 * time has no rate, which adds nothing to the operator's sum and reaches the policy as 0 measured
 * capacity (docs/metrics.md). A keyed operator whose instances count their key groups also gets its
 * per-key-group input rates ({@link KeyGroupRates}).
 */
public final class WindowRates {

    /** The window and, one line each, the operators left out and why. */
    public record Result(MetricsWindow window, List<String> problems) {}

    private WindowRates() {}

    public static Result between(MetricsSample from, MetricsSample to) {
        List<OperatorMetrics> operators = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (OperatorSpec op : to.topology().operators()) {
            Optional<String> missing = missing(op, from, to);
            if (missing.isPresent()) {
                problems.add(missing.get());
            } else {
                operators.add(operator(op, from, to, to.topology().isSource(op.id())));
            }
        }
        return new Result(MetricsWindow.of(from.time(), to.time(), operators), problems);
    }

    private static Optional<String> missing(OperatorSpec op, MetricsSample from, MetricsSample to) {
        for (int i = 0; i < op.parallelism(); i++) {
            if (to.instance(op.id(), i).isEmpty()) {
                return Optional.of(
                        "operator '"
                                + op.id()
                                + "' instance "
                                + i
                                + " did not report in the sample at "
                                + to.time()
                                + "; the window leaves the operator out");
            }
            if (from.instance(op.id(), i).isEmpty()) {
                return Optional.of(
                        "operator '"
                                + op.id()
                                + "' instance "
                                + i
                                + " did not report in the sample at "
                                + from.time()
                                + " that starts the window; the window leaves the operator out");
            }
        }
        return Optional.empty();
    }

    private static OperatorMetrics operator(
            OperatorSpec op, MetricsSample from, MetricsSample to, boolean source) {
        List<InstanceWindowRates> instances = new ArrayList<>();
        List<InstanceCounts> starts = new ArrayList<>();
        List<InstanceCounts> ends = new ArrayList<>();
        double offered = 0;
        Double backlog = 0.0;
        for (int i = 0; i < op.parallelism(); i++) {
            InstanceCounts a = from.instance(op.id(), i).orElseThrow();
            InstanceCounts b = to.instance(op.id(), i).orElseThrow();
            starts.add(a);
            ends.add(b);
            instances.add(rates(i, a, b));
            offered += offered(a, b);
            backlog = backlog == null || b.backlog() == null ? null : backlog + b.backlog();
        }
        OperatorMetrics metrics =
                new OperatorMetrics(
                        op.id(),
                        op.parallelism(),
                        sum(instances, InstanceWindowRates::trueProcessingRate),
                        sum(instances, InstanceWindowRates::trueOutputRate),
                        sum(instances, InstanceWindowRates::observedProcessingRate),
                        sum(instances, InstanceWindowRates::observedOutputRate),
                        instances,
                        Optional.empty(),
                        KeyGroupRates.between(starts, ends, op.keyGroups()),
                        coreWaitShare(starts, ends));
        // One instance without a backlog signal leaves the operator without one (null, as in the
        // counter record); the offered rate is then NaN, which Math.max keeps.
        return source ? metrics.withSource(Math.max(0, offered), backlog) : metrics;
    }

    /**
     * An instance's offered rate over the window, (Δread + Δbacklog) / Δt; NaN when its backlog is
     * not known at either end of the window (no lag signal), so that it is not read as 0 offered.
     */
    private static double offered(InstanceCounts a, InstanceCounts b) {
        if (a.backlog() == null || b.backlog() == null) {
            return Double.NaN;
        }
        return Rate.measured(
                Rate.perSecond(
                        b.recordsIn() - a.recordsIn() + b.backlog() - a.backlog(),
                        Counters.seconds(b.observedNanos() - a.observedNanos())));
    }

    /**
     * The share of the operator's useful time its threads waited for a core: per instance the
     * window's run delay, the part of it that fell in useful time taken in proportion to useful
     * over observed time, summed and divided by the summed useful time; null (not known) where an
     * instance's wait is not known at either end or no time was useful.
     */
    static Double coreWaitShare(List<InstanceCounts> starts, List<InstanceCounts> ends) {
        double waited = 0;
        double useful = 0;
        for (int i = 0; i < starts.size(); i++) {
            InstanceCounts a = starts.get(i);
            InstanceCounts b = ends.get(i);
            if (a.coreWaitNanos() == null || b.coreWaitNanos() == null) {
                return null;
            }
            double u = Counters.seconds(b.usefulNanos() - a.usefulNanos());
            double observed = Counters.seconds(b.observedNanos() - a.observedNanos());
            double wait = Counters.seconds(b.coreWaitNanos() - a.coreWaitNanos());
            waited += observed > 0 ? wait * Math.min(1, u / observed) : 0;
            useful += u;
        }
        return useful > 0 && waited >= 0 ? waited / useful : null;
    }

    private static InstanceWindowRates rates(int index, InstanceCounts a, InstanceCounts b) {
        Ds2Rates rates =
                Ds2Rates.of(
                        b.recordsIn() - a.recordsIn(),
                        b.recordsOut() - a.recordsOut(),
                        Counters.seconds(b.usefulNanos() - a.usefulNanos()),
                        Counters.seconds(b.observedNanos() - a.observedNanos()));
        return new InstanceWindowRates(
                index,
                Rate.measured(rates.trueProcessing()),
                Rate.measured(rates.trueOutput()),
                Rate.measured(rates.observedProcessing()),
                Rate.measured(rates.observedOutput()));
    }

    private static double sum(
            List<InstanceWindowRates> instances, ToDoubleFunction<InstanceWindowRates> rate) {
        return instances.stream().mapToDouble(rate).sum();
    }
}
