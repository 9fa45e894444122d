package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a rescale needed only to drain a backlog sooner would drain it sooner. The running
 * configuration sustains its target and drains its backlog of b seconds of input in t = b / (h − 1)
 * with the bottleneck's headroom h; the planned configuration first stops for its downtime d, which
 * adds d seconds of input, then drains with its own headroom h': d + (b + d) / (h' − 1). A plan
 * capped below the catch-up rate (a bound, a hot key) may drain later than the running
 * configuration, and a rescale that drains later only adds a downtime.
 */
final class DrainSooner {

    private DrainSooner() {}

    /**
     * Why the planned configuration would drain no sooner than the running one, if it would not.
     *
     * @param running the running check, whose need is a drain only ({@link RunningCheck#drainOnly})
     * @param downtimeSeconds the downtime the rescale is planned for
     */
    static Optional<String> no(
            RunningCheck running,
            List<OperatorDecision> plan,
            Map<String, Ds2Formula.Estimate> required,
            Capacities capacities,
            PolicyConfig config,
            double downtimeSeconds) {
        double now = running.drainSeconds();
        double spareNow = RunningCheck.tolerated(running.headroom(), config) - 1;
        if (!running.drainOnly() || Double.isInfinite(now) || spareNow <= 0) {
            return Optional.empty();
        }
        double planned = UrgentNeed.headroom(plan, required, capacities) - 1;
        double backlog = now * spareNow;
        double then =
                planned > 0
                        ? downtimeSeconds + (backlog + downtimeSeconds) / planned
                        : Double.POSITIVE_INFINITY;
        return then < now
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                Locale.ROOT,
                                "no rescale drains sooner: the running configuration drains its"
                                        + " backlog in %.0f s, the planned one would take %s"
                                        + " (%.0f s of downtime, then %.2f× its required rate)",
                                now,
                                Double.isInfinite(then)
                                        ? "forever"
                                        : String.format(Locale.ROOT, "%.0f s", then),
                                downtimeSeconds,
                                planned + 1));
    }
}
