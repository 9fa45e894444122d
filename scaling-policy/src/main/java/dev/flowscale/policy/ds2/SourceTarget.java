package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.SourceMetrics;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A source's target rate: its base rate (user-given, else the offered rate) plus, when a rescale is
 * planned, the catch-up rate that drains what the source will owe within the planned share of the
 * catch-up time: the backlog it owes now (if the plan must drain it) and what the rescale's own
 * downtime adds. A rescale plans for its own downtime once; the running configuration is judged on
 * the measured backlog alone. In predictive mode the base rate is the higher of the offered rate
 * and the source's forecast maximum ({@link Forecasts}).
 *
 * @param base rate sized for before catch-up: the configured or offered rate, or a higher forecast
 * @param offered the configured or offered rate measured now
 * @param backlog records the plan drains
 */
record SourceTarget(
        double base,
        double offered,
        double owed,
        double backlog,
        double catchUp,
        boolean userGiven) {

    /**
     * Share of the catch-up time a needed rescale drains its backlog in, so that a rescale whose
     * downtime runs somewhat over its estimate still drains within the catch-up time and needs no
     * second one. A trim plans its own downtime over the whole catch-up time: the spare that makes
     * it the smallest configuration able to absorb one rescale in time.
     */
    static final double PLAN_SHARE = 0.75;

    double total() {
        return base + catchUp;
    }

    /**
     * Share of the target above the offered rate (catch-up, and in predictive mode the forecast's
     * rise), so that a decision's target × (1 − share) is the rate the source offered: the load
     * that {@link Load} compares and {@link Forecasts} fits.
     */
    double catchUpShare() {
        return total() > 0 ? (total() - offered) / total() : 0;
    }

    /**
     * Base targets of every source, with nothing to catch up: what the running job must sustain.
     */
    static Map<String, SourceTarget> base(
            JobTopology topology, MetricsWindow window, PolicyConfig config, Forecasts forecasts) {
        return of(topology, window, config, forecasts, 0, false);
    }

    /**
     * Targets of every source for a rescale that costs {@code downtimeSeconds}; {@code drainOwed}
     * adds the backlog owed now (a needed rescale) or leaves it out (a trim, taken once drained).
     */
    static Map<String, SourceTarget> of(
            JobTopology topology,
            MetricsWindow window,
            PolicyConfig config,
            Forecasts forecasts,
            double downtimeSeconds,
            boolean drainOwed) {
        Map<String, SourceTarget> targets = new LinkedHashMap<>();
        for (String id : topology.sources()) {
            targets.put(
                    id,
                    of(
                            id,
                            window.metrics(id).orElseThrow(),
                            config,
                            forecasts.floor(id),
                            downtimeSeconds,
                            drainOwed));
        }
        return targets;
    }

    private static SourceTarget of(
            String id,
            OperatorMetrics m,
            PolicyConfig config,
            double forecast,
            double downtime,
            boolean drainOwed) {
        Double given = config.sourceTargetRates().get(id);
        double offered =
                given != null ? given : m.source().map(SourceMetrics::offeredRate).orElse(0.0);
        double base = Math.max(offered, forecast);
        double owed = m.source().map(SourceMetrics::backlogRecords).orElse(0.0);
        double seconds = config.catchUpSeconds() * (drainOwed ? PLAN_SHARE : 1);
        if (seconds == 0) {
            return new SourceTarget(base, offered, owed, 0, 0, given != null);
        }
        double backlog = (drainOwed ? owed : 0) + base * downtime;
        return new SourceTarget(base, offered, owed, backlog, backlog / seconds, given != null);
    }

    /** Rates per source id for the DS2 formula. */
    static Map<String, Double> rates(Map<String, SourceTarget> targets) {
        Map<String, Double> rates = new LinkedHashMap<>();
        targets.forEach((id, s) -> rates.put(id, s.total()));
        return rates;
    }

    String explain(PolicyConfig config) {
        String origin = userGiven ? "configured" : base > offered ? "forecast" : "offered";
        if (config.catchUpDuration().isZero()) {
            return String.format(
                    "source target %.1f rec/s (%s; catch-up disabled, backlog %.0f)",
                    base, origin, owed);
        }
        if (catchUp == 0) {
            return String.format("source target %.1f rec/s (%s; backlog %.0f)", base, origin, owed);
        }
        double seconds = backlog / catchUp;
        return String.format(
                "source target %.1f rec/s = %s %.1f + %.0f records to drain in %.0f s"
                        + " (%.0f %% of the %d s catch-up time; catch-up share %.1f %%)",
                total(),
                origin,
                base,
                backlog,
                seconds,
                100 * seconds / config.catchUpSeconds(),
                config.catchUpDuration().toSeconds(),
                100 * catchUpShare());
    }
}
