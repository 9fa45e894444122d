package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * When a needed rescale does not wait for a second window to confirm it. Confirmation guards
 * against sizing on a window mixed across a step in load, whose rate understates the new load. It
 * is skipped only for a plan capped by an operator that no allowed parallelism lets carry its
 * planned rate (a hot key, or its upper bound): that operator takes the parallelism set by its
 * capacity curve or bound, and every other operator is sized for what it carries, so the window's
 * rate does not size the plan and a mixed window cannot undersize it. Even then the wait is skipped
 * only when it would cost the deadline: with one more interval of shortfall owed, the planned
 * configuration would not drain the backlog and the rescale's own downtime within the catch-up time
 * plus one window.
 */
final class UrgentNeed {

    private UrgentNeed() {}

    /**
     * Why the need is acted on without confirmation, or empty when it waits as usual.
     *
     * @param needed the planned configuration
     * @param required every operator's estimate at the sources' base rates
     * @param sources the sources' base targets, with the backlog owed now
     * @param runningHeadroom the running bottleneck's capacity over its required rate
     * @param downtimeSeconds the rescale's planned downtime
     * @param windowSeconds the window's length, the wait a confirmation costs
     */
    static Optional<String> of(
            List<OperatorDecision> needed,
            Map<String, Ds2Formula.Estimate> required,
            Map<String, SourceTarget> sources,
            double runningHeadroom,
            double downtimeSeconds,
            double windowSeconds,
            PolicyConfig config,
            Capacities capacities) {
        if (config.catchUpSeconds() == 0
                || Plan.share(needed, true, capacities) >= 1 - 1e-9
                || Double.isInfinite(runningHeadroom)) {
            return Optional.empty();
        }
        double planned = headroom(needed, required, capacities);
        if (!(planned > 1)) {
            return Optional.empty(); // it drains never, now or after the wait: nothing to win
        }
        double deadline = config.catchUpSeconds() + windowSeconds;
        for (Map.Entry<String, SourceTarget> s : sources.entrySet()) {
            double base = s.getValue().base();
            double shortfall = base * Math.max(0, 1 - runningHeadroom) * windowSeconds;
            double backlog = s.getValue().owed() + shortfall + base * downtimeSeconds;
            double drain = backlog / (base * (planned - 1));
            if (base > 0 && drain > deadline) {
                return Optional.of(
                        String.format(
                                "acting without waiting for a confirming window: the plan is capped by"
                                        + " an operator at its limit (its bound, or a hot key), not sized"
                                        + " by the window's rate,"
                                        + " and after one more window source '%s' would owe %.0f records,"
                                        + " which the planned configuration (%.2f× its required rate)"
                                        + " drains in %.0f s, beyond the %d s catch-up time plus one window",
                                s.getKey(),
                                backlog,
                                planned,
                                drain,
                                config.catchUpDuration().toSeconds()));
            }
        }
        return Optional.empty();
    }

    /**
     * At the planned configuration, the bottleneck's capacity over its rate at the base target: the
     * spare that drains a backlog (also what a trim keeps to drain its own downtime).
     */
    static double headroom(
            List<OperatorDecision> ops,
            Map<String, Ds2Formula.Estimate> required,
            Capacities capacities) {
        double headroom = Double.POSITIVE_INFINITY;
        for (OperatorDecision op : ops) {
            double rate = required.get(op.operatorId()).targetInputRate();
            if (rate > 0 && op.capacityPerInstance() > 0) {
                headroom =
                        Math.min(
                                headroom,
                                capacities.at(
                                                op.operatorId(),
                                                op.newParallelism(),
                                                op.capacityPerInstance())
                                        / rate);
            }
        }
        return headroom;
    }
}
