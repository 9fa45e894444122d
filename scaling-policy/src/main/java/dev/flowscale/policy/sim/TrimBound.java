package dev.flowscale.policy.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

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
     * Why a final configuration {@code last} above the minimum is no failure, if it is not: the
     * trim to the minimum would not pay ({@link #notWorthIt}), or no policy could know it saves
     * instances ({@link #curveUnknown}), or, with both limits at once, the trim to the minimum a
     * policy could know would not pay.
     */
    static Optional<Map.Entry<SettlingReport.Exemption.Kind, String>> exemption(
            Scenario scenario,
            SettlingCriteria criteria,
            Map<String, Double> rates,
            Map<String, Integer> last,
            boolean measured,
            Predicate<String> ranOnlyAtLast) {
        return notWorthIt(scenario, criteria, rates, last, measured, id -> false)
                .map(TrimBound::notWorthItsDowntime)
                .or(
                        () ->
                                curveUnknown(scenario, criteria, rates, last, ranOnlyAtLast)
                                        .map(
                                                why ->
                                                        Map.entry(
                                                                SettlingReport.Exemption.Kind
                                                                        .CURVE_UNKNOWN_BELOW_THE_FINAL,
                                                                why)))
                .or(
                        () ->
                                notWorthIt(scenario, criteria, rates, last, measured, ranOnlyAtLast)
                                        .map(TrimBound::notWorthItsDowntime));
    }

    private static Map.Entry<SettlingReport.Exemption.Kind, String> notWorthItsDowntime(
            String why) {
        return Map.entry(SettlingReport.Exemption.Kind.TRIM_NOT_WORTH_ITS_DOWNTIME, why);
    }

    /**
     * Why a trim from {@code last} to the minimum would not pay for its downtime: it saves no
     * instances net (the operators below the minimum must rise), or the instances it saves over the
     * savings horizon are no more than every running instance times the downtime (the cost test the
     * policy applies before a trim); empty when it would pay. The minimum is the one a policy can
     * know: a non-linear operator that ran at no parallelism but {@code last} ({@code
     * ranOnlyAtLast}) is sized with its capacity per instance there, as {@link #curveUnknown} sizes
     * it, but for the spare of the downtime the policy knows.
     *
     * @param measured whether the job had measured a rescale's downtime by then
     */
    static Optional<String> notWorthIt(
            Scenario scenario,
            SettlingCriteria criteria,
            Map<String, Double> rates,
            Map<String, Integer> last,
            boolean measured,
            Predicate<String> ranOnlyAtLast) {
        double downtime = criteria.plannedDowntimeSeconds(measured);
        double catchUp = criteria.catchUp().toNanos() / 1e9;
        double reserve = 1 + (catchUp > 0 ? downtime / catchUp : 0);
        Optional<String> late = noTrimDrainsInTime(scenario, criteria, rates, downtime, measured);
        if (late.isPresent()) {
            return late;
        }
        Map<String, Integer> minimum = scenario.optimalParallelism(rates, reserve);
        // net: reaching the minimum raises what lacks the reserve as it lowers the rest
        int saved = 0;
        int running = 0;
        List<String> guessed = new ArrayList<>();
        for (SimOperator op : scenario.operators()) {
            int p = last.get(op.id());
            int lowest = minimum.get(op.id());
            if (!op.scalesLinearly() && p > lowest && ranOnlyAtLast.test(op.id())) {
                double perInstance = op.effectiveCapacity(p) / p;
                lowest =
                        Math.min(
                                p,
                                Math.max(
                                        lowest,
                                        (int)
                                                Math.ceil(
                                                        rates.get(op.id()) * reserve / perInstance
                                                                - 1e-9)));
                guessed.add("'" + op.id() + "' at " + p);
            }
            saved += p - lowest;
            running += p;
        }
        String known =
                (measured ? "" : " (no rescale measured: the configured downtime)")
                        + (guessed.isEmpty()
                                ? ""
                                : " (non-linear "
                                        + String.join(", ", guessed)
                                        + " ran at no other parallelism: sized with its capacity"
                                        + " per instance there)");
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

    /**
     * Why no trim drains the backlog of its own downtime within the catch-up time plus one
     * interval, if none does: some operator that could carry more than its rate (one capped at its
     * rate passes on no backlog and holds no trim) carries too little more at its most capable
     * parallelism. A policy keeps the spare to drain its trim's downtime in time, so it takes no
     * trim here.
     */
    private static Optional<String> noTrimDrainsInTime(
            Scenario scenario,
            SettlingCriteria criteria,
            Map<String, Double> rates,
            double downtime,
            boolean measured) {
        if (criteria.catchUp().isZero()) {
            return Optional.empty();
        }
        for (SimOperator op : scenario.operators()) {
            double rate = rates.get(op.id());
            double headroom = rate > 0 ? Scenario.mostCapable(op) / rate : 0;
            if (op.isSource() || headroom <= 1 + 1e-9) {
                continue;
            }
            double drain = downtime / (headroom - 1);
            if (drain > criteria.drainSeconds()) {
                return Optional.of(
                        String.format(
                                Locale.ROOT,
                                "no trim drains its own downtime of %.1f s%s in time: at its most"
                                        + " capable parallelism '%s' carries %.2f× its rate and"
                                        + " takes %.0f s of the %d s allowed",
                                downtime,
                                measured ? "" : " (no rescale measured: the configured downtime)",
                                op.id(),
                                headroom,
                                drain,
                                criteria.drainSeconds()));
            }
        }
        return Optional.empty();
    }

    /**
     * Why no policy could know a trim from {@code last} saves instances: a non-linear operator
     * above its minimum ran at no other parallelism ({@code ranOnlyAtLast}), so all a policy knew
     * of its curve below was its capacity per instance there (per instance, capacity only grows
     * below, so that is the safe estimate); sized with it, the trim lowers that operator by no more
     * than it raises the operators that lack the spare to drain its downtime. Empty where such a
     * trim saves instances.
     */
    private static Optional<String> curveUnknown(
            Scenario scenario,
            SettlingCriteria criteria,
            Map<String, Double> rates,
            Map<String, Integer> last,
            Predicate<String> ranOnlyAtLast) {
        Map<String, Integer> optimum = scenario.optimalParallelism(rates, 1 + criteria.reserve());
        int saved = 0;
        List<String> guessed = new ArrayList<>();
        for (SimOperator op : scenario.operators()) {
            int p = last.get(op.id());
            int known = optimum.get(op.id());
            if (!op.scalesLinearly() && p > known && ranOnlyAtLast.test(op.id())) {
                double perInstance = op.effectiveCapacity(p) / p;
                double need = rates.get(op.id()) * (1 + criteria.reserve());
                known = Math.min(p, (int) Math.ceil(need / perInstance - 1e-9));
                guessed.add("'" + op.id() + "' at " + p);
            }
            saved += p - known;
        }
        return guessed.isEmpty() || saved > 0
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                Locale.ROOT,
                                "non-linear %s ran at no other parallelism: sized with its capacity"
                                        + " per instance there, a trim to the minimum raises the"
                                        + " operators that lack the spare by %d more than it lowers"
                                        + " the rest",
                                String.join(", ", guessed),
                                -saved));
    }
}
