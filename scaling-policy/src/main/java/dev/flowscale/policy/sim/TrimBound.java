package dev.flowscale.policy.sim;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether any policy's trim from a final configuration to the minimum would pay for its downtime,
 * computed from the scenario and the downtime a policy knows: the real one once a rescale has been
 * measured, the configured prior until then. The minimum keeps the spare to drain that downtime
 * within the catch-up time, so a policy that knows only the prior aims at the minimum for the
 * prior.
 */
final class TrimBound {

    private TrimBound() {}

    /**
     * Why a trim from {@code last} to the minimum would not pay for its downtime: it saves no
     * instances net (the operators below the minimum must rise), or the instances it saves over the
     * savings horizon are no more than every running instance times the downtime (the cost test the
     * policy applies before a trim); empty when it would pay.
     *
     * @param measured whether the job had measured a rescale's downtime by then
     */
    static Optional<String> notWorthIt(
            Scenario scenario,
            SettlingCriteria criteria,
            Map<String, Double> rates,
            Map<String, Integer> last,
            boolean measured) {
        double downtime = criteria.plannedDowntimeSeconds(measured);
        double catchUp = criteria.catchUp().toNanos() / 1e9;
        Map<String, Integer> minimum =
                scenario.optimalParallelism(rates, 1 + (catchUp > 0 ? downtime / catchUp : 0));
        // net: reaching the minimum raises what lacks the reserve as it lowers the rest
        int saved = 0;
        int running = 0;
        for (SimOperator op : scenario.operators()) {
            saved += last.get(op.id()) - minimum.get(op.id());
            running += last.get(op.id());
        }
        String known = measured ? "" : " (no rescale measured: the configured downtime)";
        if (saved <= 0) {
            return Optional.of(
                    String.format(
                            Locale.ROOT,
                            "the rescale to the minimum for %.1f s of downtime%s saves no instances:"
                                    + " it raises the operators that lack the spare to drain it by %d"
                                    + " more than it lowers the rest",
                            downtime,
                            known,
                            -saved));
        }
        double savedSeconds = saved * criteria.savingsHorizon().toSeconds();
        double costSeconds = running * downtime;
        return savedSeconds > 0 && savedSeconds <= costSeconds
                ? Optional.of(
                        String.format(
                                Locale.ROOT,
                                "a trim to the minimum saves %d instances × %d s = %.0f instance-s"
                                        + " and its downtime%s costs %d instances × %.0f s = %.0f"
                                        + " instance-s",
                                saved,
                                criteria.savingsHorizon().toSeconds(),
                                savedSeconds,
                                known,
                                running,
                                downtime,
                                costSeconds))
                : Optional.empty();
    }
}
