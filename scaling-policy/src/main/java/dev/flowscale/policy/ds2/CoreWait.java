package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Contention seen, not mistaken for load. Useful time is wall-clock time: on a loaded machine, or
 * in a pod throttled by its CPU limit, it counts the time an operator's threads were runnable but
 * waited for a core ({@link OperatorMetrics#coreWaitShare()}), and DS2's true rates fall though the
 * code is as fast as ever. The true rates are therefore taken over the useful time less that wait:
 * divided by (1 − share), the share capped at {@value #MAX_SHARE} so a window of almost nothing but
 * waiting cannot multiply a capacity beyond fifty. The kernel counts the wait to the nanosecond,
 * and a build loading two cores twelvefold leaves an operator's thread a core for only 4 % of its
 * useful time: a cap of 0.9 sized such a job at twice what a quiet machine sizes it. Where the wait
 * is notable the decision says the job is CPU-starved and that more CPU per pod (an in-place
 * resize) serves better than more instances, which only add threads that wait too.
 */
final class CoreWait {

    /** Highest share of useful time taken for waiting. */
    static final double MAX_SHARE = 0.98;

    /** A wait above this share of useful time is reported. */
    static final double STARVED = 0.1;

    private CoreWait() {}

    /** The window with every operator's true rates taken over its useful time less its wait. */
    static MetricsWindow corrected(MetricsWindow window) {
        boolean any = false;
        List<OperatorMetrics> ops = new ArrayList<>(window.operators().size());
        for (OperatorMetrics m : window.operators().values()) {
            double f = factor(m);
            any |= f != 1;
            ops.add(f == 1 ? m : scaled(m, f));
        }
        return any ? MetricsWindow.of(window.start(), window.end(), ops) : window;
    }

    private static double factor(OperatorMetrics m) {
        Double share = m.coreWaitShare();
        return share != null && Double.isFinite(share) && share > 0
                ? 1 / (1 - Math.min(MAX_SHARE, share))
                : 1;
    }

    private static OperatorMetrics scaled(OperatorMetrics m, double f) {
        List<InstanceWindowRates> instances =
                m.instances().stream()
                        .map(
                                i ->
                                        new InstanceWindowRates(
                                                i.index(),
                                                i.trueProcessingRate() * f,
                                                i.trueOutputRate() * f,
                                                i.observedProcessingRate(),
                                                i.observedOutputRate()))
                        .toList();
        return new OperatorMetrics(
                m.operatorId(),
                m.parallelism(),
                m.trueProcessingRate() * f,
                m.trueOutputRate() * f,
                m.observedProcessingRate(),
                m.observedOutputRate(),
                instances,
                m.source(),
                m.keyGroupRates(),
                m.coreWaitShare());
    }

    /** The decision's reason when some operator waited notably for cores. */
    static Optional<String> explain(MetricsWindow window) {
        Optional<OperatorMetrics> most =
                window.operators().values().stream()
                        .filter(m -> m.coreWaitShare() != null)
                        .filter(m -> Double.isFinite(m.coreWaitShare()))
                        .max((a, b) -> Double.compare(a.coreWaitShare(), b.coreWaitShare()));
        if (most.isEmpty() || !(most.get().coreWaitShare() > STARVED)) {
            return Optional.empty();
        }
        double share = Math.min(MAX_SHARE, most.get().coreWaitShare());
        return Optional.of(
                String.format(
                        Locale.ROOT,
                        "CPU-starved: operator '%s' waited for a core %.0f %% of its useful time"
                                + " (a loaded machine or a throttled pod); true rates are taken"
                                + " over useful time less that wait (its capacity ×%.2f); more"
                                + " CPU per pod (an in-place resize) serves better than more"
                                + " instances, which add threads that wait too",
                        most.get().operatorId(),
                        100 * most.get().coreWaitShare(),
                        1 / (1 - share)));
    }
}
