package dev.flowscale.policy.sim;

import dev.flowscale.policy.sim.SettlingReport.Exemption;
import dev.flowscale.policy.sim.SettlingReport.Violation;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * When rescales after a load change's sustaining configuration beyond the trims allowed are exempt:
 * the first trim was sized on a guess that it replaced with a measurement. One more is allowed
 * where it lowered a non-linear operator from the only parallelism the operator had run at, or
 * where the second lowers such an operator further, on a curve now measured at two parallelisms,
 * and saves more than its downtime costs; one more, or two where the prior was below the real
 * downtime, where the first trim was the job's first rescale, planned on a configured downtime off
 * the real one.
 */
final class SecondTrim {

    private final Scenario scenario;
    private final SettlingCriteria criteria;
    private final List<Rescale> rescales;
    private final List<Map<String, Integer>> configs;
    private final List<Map<String, Integer>> before;
    private final long firstMeasured;

    /**
     * @param rescales the phase's rescales
     * @param configs the configuration at the phase's start, then each rescale's
     * @param before the configurations the job ran before the phase, its start included
     * @param firstMeasured when the job's first rescale ended (-1: none ended)
     */
    SecondTrim(
            Scenario scenario,
            SettlingCriteria criteria,
            List<Rescale> rescales,
            List<Map<String, Integer>> configs,
            List<Map<String, Integer>> before,
            long firstMeasured) {
        this.scenario = scenario;
        this.criteria = criteria;
        this.rescales = rescales;
        this.configs = configs;
        this.before = before;
        this.firstMeasured = firstMeasured;
    }

    /** The exemption of {@code v}, {@code trims} rescales after the {@code sustaining}-th. */
    Optional<Exemption> exemption(Violation v, int sustaining, int trims) {
        // a first trim planned on a prior below the real downtime keeps too little spare to drain
        // it: a scale-up on the measured downtime follows, then the trim sized on it
        int afterGuess = criteria.priorBelowReal() ? 2 : 1;
        boolean one = trims == criteria.maxTrims() + 1;
        return (one ? guessedCurve(sustaining) : Optional.<String>empty())
                .map(why -> new Exemption(v, Exemption.Kind.CURVE_UNKNOWN_BELOW_THE_TRIM, why))
                .or(
                        () ->
                                (one ? fittedCurve(sustaining) : Optional.<String>empty())
                                        .map(
                                                why ->
                                                        new Exemption(
                                                                v,
                                                                Exemption.Kind
                                                                        .CURVE_FITTED_AFTER_THE_TRIM,
                                                                why)))
                .or(
                        () ->
                                (trims <= criteria.maxTrims() + afterGuess
                                                ? guessedDowntime(sustaining)
                                                : Optional.<String>empty())
                                        .map(
                                                why ->
                                                        new Exemption(
                                                                v,
                                                                Exemption.Kind
                                                                        .DOWNTIME_UNKNOWN_AT_THE_TRIM,
                                                                why)));
    }

    /**
     * Why no policy could size the first trim's spare right: it was the job's first rescale, so the
     * downtime it planned to drain was the configured prior, off the real one.
     */
    private Optional<String> guessedDowntime(int sustaining) {
        long start = rescales.get(sustaining).startSecond();
        return criteria.priorOff() && (firstMeasured < 0 || firstMeasured > start)
                ? Optional.of(
                        String.format(
                                Locale.ROOT,
                                "the first trim, at %d s, was the job's first rescale: it planned the"
                                        + " configured %.1f s of downtime, where a rescale takes %.1f s",
                                start,
                                criteria.prior().toNanos() / 1e9,
                                criteria.downtimeSeconds()))
                : Optional.empty();
    }

    /**
     * Why no policy could size the first trim right: it lowered a non-linear operator from the only
     * parallelism the operator had run at, so its capacity below was unknown until the trim
     * measured it (one corrective trim is then allowed).
     */
    private Optional<String> guessedCurve(int sustaining) {
        Map<String, Integer> from = configs.get(sustaining);
        Map<String, Integer> to = configs.get(sustaining + 1);
        for (SimOperator op : scenario.operators()) {
            int p = from.get(op.id());
            if (!op.scalesLinearly() && to.get(op.id()) < p && ranOnlyAt(op.id(), p, sustaining)) {
                return Optional.of(
                        String.format(
                                Locale.ROOT,
                                "the first trim lowered non-linear '%s' from %d, the only parallelism"
                                        + " it had run at: its capacity below was unknown until then",
                                op.id(),
                                p));
            }
        }
        return Optional.empty();
    }

    /**
     * Why the second trim is the correction the first allows: the first lowered a non-linear
     * operator, the second lowers it further on the curve measured at both parallelisms, raises
     * nothing, and the instances it saves over the savings horizon exceed what its downtime costs.
     */
    private Optional<String> fittedCurve(int sustaining) {
        if (configs.size() < sustaining + 3) {
            return Optional.empty();
        }
        Map<String, Integer> from = configs.get(sustaining);
        Map<String, Integer> first = configs.get(sustaining + 1);
        Map<String, Integer> second = configs.get(sustaining + 2);
        int saved = 0;
        int running = 0;
        for (String id : first.keySet()) {
            if (second.get(id) > first.get(id)) {
                return Optional.empty();
            }
            saved += first.get(id) - second.get(id);
            running += first.get(id);
        }
        double gain = saved * criteria.savingsHorizon().toNanos() / 1e9;
        double cost = running * criteria.downtimeSeconds();
        for (SimOperator op : scenario.operators()) {
            String id = op.id();
            if (!op.scalesLinearly()
                    && first.get(id) < from.get(id)
                    && second.get(id) < first.get(id)
                    && gain > cost) {
                return Optional.of(
                        String.format(
                                Locale.ROOT,
                                "the first trim lowered non-linear '%s' from %d to %d; the second,"
                                        + " on its curve measured at both, lowers it to %d and saves"
                                        + " %d instances × %d s, more than its downtime costs (%d"
                                        + " instances × %.0f s)",
                                id,
                                from.get(id),
                                first.get(id),
                                second.get(id),
                                saved,
                                criteria.savingsHorizon().toSeconds(),
                                running,
                                criteria.downtimeSeconds()));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether every configuration the job ran up to the {@code upTo}-th of this phase had {@code
     * id} at p.
     */
    boolean ranOnlyAt(String id, int p, int upTo) {
        return before.stream().allMatch(c -> c.get(id) == p)
                && configs.subList(0, upTo + 1).stream().allMatch(c -> c.get(id) == p);
    }
}
