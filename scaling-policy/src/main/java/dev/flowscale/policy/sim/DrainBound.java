package dev.flowscale.policy.sim;

import java.util.Locale;
import java.util.Map;

/**
 * How soon any policy can drain the backlog after a load change, computed from the scenario alone,
 * so that a late drain no policy could avoid is classified rather than counted as a failure.
 *
 * <p>After one rescale of downtime d, every source owes at least d seconds of its input; an
 * operator needing rate r whose most capable parallelism carries C drains its share of that in d ×
 * r / (C − r) at best ({@link #anyPolicy}). A reactive policy that decides every interval on a
 * window of that length sees a step up one interval after it at the earliest, and during that
 * interval the configuration that ran at the change falls short by the share 1 − s (s: the least,
 * over operators, of its capacity over its new rate), so the backlog is at least (d + (1 − s) ×
 * interval) seconds of input ({@link #reactive}). Both drain down to the backlog that counts as
 * drained.
 *
 * @param operator the operator that takes longest
 * @param seconds how long it takes to drain, at its most capable parallelism
 * @param backlogSeconds the backlog drained, in seconds of the sources' input
 */
record DrainBound(String operator, double seconds, double backlogSeconds) {

    /**
     * The bound for any policy: the backlog of one downtime alone, down to the {@code tolerance}
     * (seconds of input) that counts as drained.
     */
    static DrainBound anyPolicy(
            Scenario scenario, Map<String, Double> rates, double downtime, double tolerance) {
        return slowest(scenario, rates, downtime, tolerance);
    }

    /**
     * The bound for a policy that sees the change one interval after it, from the configuration
     * that ran at the change.
     */
    static DrainBound reactive(
            Scenario scenario,
            Map<String, Double> rates,
            Map<String, Integer> running,
            double downtime,
            double interval,
            double tolerance) {
        double share = 1;
        for (Map.Entry<String, Double> e : rates.entrySet()) {
            SimOperator op = scenario.operator(e.getKey());
            if (!op.isSource() && e.getValue() > 0) {
                share =
                        Math.min(
                                share,
                                op.effectiveCapacity(running.get(e.getKey())) / e.getValue());
            }
        }
        return slowest(scenario, rates, downtime + (1 - share) * interval, tolerance);
    }

    private static DrainBound slowest(
            Scenario scenario, Map<String, Double> rates, double backlogSeconds, double tolerance) {
        double drained = Math.max(0, backlogSeconds - tolerance);
        String worst = "-";
        double longest = 0;
        for (Map.Entry<String, Double> e : rates.entrySet()) {
            SimOperator op = scenario.operator(e.getKey());
            double best = Scenario.mostCapable(op);
            double seconds =
                    best > e.getValue() * (1 + 1e-9)
                            ? drained * e.getValue() / (best - e.getValue())
                            : Double.POSITIVE_INFINITY;
            if (seconds > longest) {
                longest = seconds;
                worst = e.getKey();
            }
        }
        return new DrainBound(worst, longest, backlogSeconds);
    }

    boolean exceeds(long allowedSeconds) {
        return seconds > allowedSeconds;
    }

    String explain(long allowedSeconds) {
        return String.format(
                Locale.ROOT,
                "at its most capable parallelism '%s' takes %.0f s of the %d s allowed to drain %.0f s"
                        + " of input",
                operator,
                seconds,
                allowedSeconds,
                backlogSeconds);
    }
}
