package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the job's threads waited for cores. The engine measures, per operator, the share of its
 * useful time its threads ran on a core ({@link OperatorMetrics#cpuShare()}). One operator below 1
 * may be blocked in calls (a remote service, disk); most operators below {@value #STARVED} means
 * the machine or the pod's CPU limit left them runnable but off the cores. Their useful time then
 * counts that wait, so DS2's capacities are understated and more instances add threads that wait
 * too: the decision says so, and that more CPU per pod (an in-place resize) serves better.
 */
final class CpuStarvation {

    /** Median CPU share below which the job is CPU-starved. */
    static final double STARVED = 0.8;

    private CpuStarvation() {}

    /** The reason to add to the decision, when the job is CPU-starved. */
    static Optional<String> of(JobTopology topology, OperatorMetrics[] inOrder) {
        List<OperatorMetrics> measured = new ArrayList<>();
        for (int i = 0; i < inOrder.length; i++) {
            double share = inOrder[i] == null ? Double.NaN : inOrder[i].cpuShare();
            if (!topology.isSourceAt(i) && Double.isFinite(share) && share >= 0) {
                measured.add(inOrder[i]);
            }
        }
        if (measured.isEmpty()) {
            return Optional.empty();
        }
        double[] shares =
                measured.stream().mapToDouble(OperatorMetrics::cpuShare).sorted().toArray();
        double median = shares[(shares.length - 1) / 2];
        if (median >= STARVED) {
            return Optional.empty();
        }
        OperatorMetrics least =
                measured.stream()
                        .min((a, b) -> Double.compare(a.cpuShare(), b.cpuShare()))
                        .orElseThrow();
        return Optional.of(
                String.format(
                        Locale.ROOT,
                        "CPU-starved: the operators' threads ran on a core for a median %.0f %% of"
                                + " their useful time (below %.0f %%; least: '%s', %.0f %%), so"
                                + " they waited for cores and their measured capacities are"
                                + " understated; more instances add threads that wait too:"
                                + " more CPU per pod (an in-place resize) serves better than"
                                + " more instances",
                        100 * median,
                        100 * STARVED,
                        least.operatorId(),
                        100 * least.cpuShare()));
    }
}
