package dev.flowscale.policy.sim;

import dev.flowscale.policy.sim.SettlingReport.Criterion;
import dev.flowscale.policy.sim.SettlingReport.Exemption;
import dev.flowscale.policy.sim.SettlingReport.LoadChange;
import dev.flowscale.policy.sim.SettlingReport.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** Checks one load phase [from, to) of a trajectory against {@link SettlingCriteria}. */
final class PhaseCheck {

    private final Trajectory trajectory;
    private final SettlingCriteria criteria;
    private final Scenario scenario;
    private final long from;
    private final long to;
    private final Map<String, Double> rates;
    private final Map<String, Integer> optimum;
    private final List<Rescale> rescales;
    private final List<Map<String, Integer>> configs = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();
    private final List<Exemption> exemptions = new ArrayList<>();
    private final LoadChange outcome;
    private final double downtime;
    // when the job's first rescale ended, measuring the downtime (-1: none ended)
    private final long firstMeasured;
    // the configurations the job ran before this phase, its start included
    private final List<Map<String, Integer>> trajectoryConfigs = new ArrayList<>();
    private final SecondTrim secondTrim;

    PhaseCheck(
            Trajectory trajectory,
            SettlingCriteria criteria,
            List<Rescale> all,
            long from,
            long to) {
        this.trajectory = trajectory;
        this.criteria = criteria;
        this.scenario = trajectory.scenario();
        this.from = from;
        this.to = to;
        // where an operator's bound caps the flow, what it can carry is the need no policy exceeds
        this.rates = scenario.feasibleRates(from);
        this.optimum = scenario.optimalParallelism(rates, 1 + criteria.reserve());
        this.rescales =
                all.stream().filter(r -> r.startSecond() >= from && r.startSecond() < to).toList();
        configs.add(
                all.stream()
                        .filter(r -> r.startSecond() < from)
                        .reduce((a, b) -> b)
                        .map(Rescale::target)
                        .orElse(scenario.initial()));
        rescales.forEach(r -> configs.add(r.target()));
        trajectoryConfigs.add(scenario.initial());
        all.stream()
                .filter(r -> r.startSecond() < from)
                .forEach(r -> trajectoryConfigs.add(r.target()));
        // the longest rescale of the run: what the job's rescales really cost
        this.downtime =
                all.stream()
                        .filter(r -> r.restartSecond() >= 0)
                        .mapToLong(r -> r.restartSecond() - r.startSecond())
                        .max()
                        .orElse(0);
        this.firstMeasured =
                all.stream().mapToLong(Rescale::restartSecond).filter(s -> s >= 0).min().orElse(-1);
        this.secondTrim =
                new SecondTrim(
                        scenario, criteria, rescales, configs, trajectoryConfigs, firstMeasured);
        this.outcome = check();
        cutShort();
    }

    /**
     * A load change that comes before this one's deadlines leaves nothing any policy could be
     * judged on: its misses are listed as cut short. The deadlines need the time to sustain and
     * then to drain, or, where the phase inherits a backlog, the time to drain it at the most
     * capable parallelism ({@link DrainBound}), then one rescale to the final configuration and the
     * drain of its downtime, whichever is longer.
     */
    private void cutShort() {
        long inherited = inheritedDrainSeconds();
        long needed =
                Math.max(
                        criteria.sustainSeconds(downtime) + criteria.drainSeconds(),
                        inherited + Math.round(downtime) + criteria.drainSeconds());
        if (to - from >= needed || violations.isEmpty()) {
            return;
        }
        String why =
                String.format(
                        Locale.ROOT,
                        "the next load change came %d s after this one; its deadlines need %d s"
                                + " (%d s to sustain, %d s to drain%s)",
                        to - from,
                        needed,
                        criteria.sustainSeconds(downtime),
                        criteria.drainSeconds(),
                        inherited > 0
                                ? ", or "
                                        + inherited
                                        + " s to drain the backlog it inherited, one rescale and"
                                        + " its drain"
                                : "");
        violations.forEach(
                v ->
                        exemptions.add(
                                new Exemption(
                                        v, Exemption.Kind.CUT_SHORT_BY_THE_NEXT_CHANGE, why)));
        violations.clear();
    }

    /**
     * How long any policy takes to drain the backlog the phase began with, at the most capable
     * parallelism; 0 where it began drained.
     */
    private long inheritedDrainSeconds() {
        double backlog =
                trajectory.points().stream()
                        .filter(p -> p.second() == from)
                        .findFirst()
                        .map(Trajectory.Point::backlog)
                        .orElse(0.0);
        double seconds = sourceRate() > 0 ? backlog / sourceRate() : 0;
        if (seconds <= criteria.backlogToleranceSeconds()) {
            return 0;
        }
        double drain =
                DrainBound.anyPolicy(scenario, rates, seconds, criteria.backlogToleranceSeconds())
                        .seconds();
        return Double.isFinite(drain) ? (long) Math.ceil(drain) : Long.MAX_VALUE / 4;
    }

    LoadChange outcome() {
        return outcome;
    }

    List<Violation> violations() {
        return violations;
    }

    List<Exemption> exemptions() {
        return exemptions;
    }

    private LoadChange check() {
        int sustaining = firstSustaining();
        int trims = sustaining < 0 ? 0 : rescales.size() - sustaining;
        long toSustain =
                sustaining < 0 ? -1 : sustaining == 0 ? 0 : restartOf(sustaining - 1) - from;
        if (sustaining < 0 || sustaining > criteria.maxRescalesToSustain()) {
            violate(
                    Criterion.RESCALES_TO_SUSTAIN,
                    "-",
                    from,
                    sustaining < 0
                            ? "no sustaining configuration in " + rescales.size() + " rescales"
                            : sustaining
                                    + " rescales until a sustaining configuration (at most "
                                    + criteria.maxRescalesToSustain()
                                    + ")");
        }
        if (trims > criteria.maxTrims()) {
            Violation v =
                    violation(
                            Criterion.TRIMS_AFTER_SUSTAIN,
                            "-",
                            rescales.get(sustaining).startSecond(),
                            trims
                                    + " rescales after the sustaining configuration (at most "
                                    + criteria.maxTrims()
                                    + ")");
            secondTrim
                    .exemption(v, sustaining, trims)
                    .ifPresentOrElse(exemptions::add, () -> violations.add(v));
        }
        checkSustainedInTime(sustaining, toSustain);
        checkNeverBelowNeed(sustaining);
        int revisits = checkRevisits();
        long drainedAt = checkDrain();
        Map<String, Integer> last = configs.get(configs.size() - 1);
        checkFinal(last);
        return new LoadChange(
                from, optimum, last, sustaining, trims, toSustain, drainedAt, revisits);
    }

    private void checkSustainedInTime(int sustaining, long toSustain) {
        long allowed = criteria.sustainSeconds(downtime);
        if (sustaining >= 0 && toSustain <= allowed) {
            return;
        }
        List<String> short_ = unsustained(configs.get(0));
        violate(
                Criterion.SUSTAINED_IN_TIME,
                short_.isEmpty() ? "-" : short_.get(0),
                from + allowed,
                sustaining < 0
                        ? "below its need until the next load change, "
                                + (to - from)
                                + " s (at most "
                                + allowed
                                + " s)"
                        : "below its need for " + toSustain + " s (at most " + allowed + " s)");
    }

    private void checkNeverBelowNeed(int sustaining) {
        for (int i = Math.max(1, sustaining + 1); sustaining >= 0 && i < configs.size(); i++) {
            List<String> below = unsustained(configs.get(i));
            if (!below.isEmpty()) {
                violate(
                        Criterion.NEVER_BELOW_NEED,
                        below.get(0),
                        rescales.get(i - 1).startSecond(),
                        "a rescale after a sustaining configuration went to "
                                + configs.get(i)
                                + ", below the need of "
                                + below);
            }
        }
    }

    private int firstSustaining() {
        for (int i = 0; i < configs.size(); i++) {
            if (unsustained(configs.get(i)).isEmpty()) {
                return i;
            }
        }
        return -1;
    }

    private List<String> unsustained(Map<String, Integer> config) {
        return rates.keySet().stream()
                .filter(
                        id ->
                                scenario.operator(id).effectiveCapacity(config.get(id))
                                        < rates.get(id) * (1 - 1e-9))
                .toList();
    }

    /** The second the i-th rescale of this phase ran again (the phase end if it never did). */
    private long restartOf(int i) {
        long restart = rescales.get(i).restartSecond();
        return restart < 0 ? to : restart;
    }

    private int checkRevisits() {
        int revisits = 0;
        for (int j = 1; j < configs.size(); j++) {
            int earlier = configs.subList(0, j).indexOf(configs.get(j));
            if (earlier >= 0) {
                revisits++;
                violate(
                        Criterion.REVISIT_WITHOUT_LOAD_CHANGE,
                        "-",
                        rescales.get(j - 1).startSecond(),
                        "returned to "
                                + configs.get(j)
                                + (earlier == 0
                                        ? ", the configuration at the load change"
                                        : ", entered by the rescale at "
                                                + rescales.get(earlier - 1).startSecond()
                                                + "s"));
            }
        }
        return revisits;
    }

    /**
     * The backlog must drain within catch-up + one interval after the last rescale (or the change).
     */
    private long checkDrain() {
        long reference = rescales.isEmpty() ? from : restartOf(rescales.size() - 1);
        long deadline = Math.min(reference + criteria.drainSeconds(), to - 1);
        double tolerance = sourceRate() * criteria.backlogToleranceSeconds();
        long drainedAt = trajectory.drainedAt(reference, tolerance);
        if (drainedAt >= to) {
            drainedAt = -1;
        }
        if (reference < to && (drainedAt < 0 || drainedAt > deadline)) {
            double backlog =
                    trajectory.points().stream()
                            .filter(p -> p.second() == deadline)
                            .findFirst()
                            .map(Trajectory.Point::backlog)
                            .orElse(Double.NaN);
            Violation v =
                    violation(
                            Criterion.BACKLOG_DRAINED,
                            "-",
                            deadline,
                            String.format(
                                    "backlog %.0f records (%.0f s of input) at the deadline; %s",
                                    backlog,
                                    backlog / sourceRate(),
                                    drainedAt < 0
                                            ? "never drained before the next load change"
                                            : "drained at " + drainedAt + "s"));
            classifyDrain(v, reference, drainedAt);
        }
        return drainedAt;
    }

    /**
     * A late drain is a failure unless the {@link DrainBound}s show that no policy, or no reactive
     * policy from the configuration that ran at the change, could drain in time; both bounds are
     * printed either way.
     */
    private void classifyDrain(Violation v, long reference, long drainedAt) {
        long allowed = criteria.drainSeconds();
        double downtime = criteria.downtimeSeconds();
        double tolerance = criteria.backlogToleranceSeconds();
        DrainBound any = DrainBound.anyPolicy(scenario, rates, downtime, tolerance);
        DrainBound reactive =
                DrainBound.reactive(
                        scenario,
                        rates,
                        configs.get(0),
                        downtime,
                        criteria.policyInterval().toNanos() / 1e9,
                        tolerance);
        String why =
                "bound for any policy: "
                        + any.explain(allowed)
                        + "; for a policy seeing the change one interval late: "
                        + reactive.explain(allowed);
        if (any.exceeds(allowed)) {
            exemptions.add(new Exemption(v, Exemption.Kind.IMPOSSIBLE_FOR_ANY_POLICY, why));
        } else if (reactive.exceeds(allowed)) {
            exemptions.add(new Exemption(v, Exemption.Kind.IMPOSSIBLE_FOR_A_REACTIVE_POLICY, why));
        } else if (plannedOnPrior(reference, drainedAt).isPresent()) {
            exemptions.add(
                    new Exemption(
                            v,
                            Exemption.Kind.DOWNTIME_UNKNOWN_AT_THE_RESCALE,
                            plannedOnPrior(reference, drainedAt).get() + "; " + why));
        } else {
            violations.add(
                    new Violation(
                            v.scenario(),
                            v.criterion(),
                            v.operator(),
                            v.second(),
                            v.detail() + " (" + why + ")"));
        }
    }

    /**
     * Why no policy could drain in time after the last rescale: it was the job's first, planned to
     * drain the configured prior of downtime within the catch-up time, and the real downtime is
     * longer. With the spare it planned, the real downtime's backlog takes the catch-up time times
     * real over prior; the drain is exempt only if it ended within that (plus one interval).
     */
    private Optional<String> plannedOnPrior(long reference, long drainedAt) {
        if (rescales.isEmpty() || !criteria.priorBelowReal()) {
            return Optional.empty();
        }
        long start = rescales.get(rescales.size() - 1).startSecond();
        double prior = criteria.prior().toNanos() / 1e9;
        double real = criteria.downtimeSeconds();
        long allowed =
                Math.round(
                        criteria.catchUp().toSeconds() * real / prior
                                + criteria.policyInterval().toSeconds());
        boolean guessed = firstMeasured < 0 || firstMeasured > start;
        return guessed && drainedAt >= 0 && drainedAt <= reference + allowed
                ? Optional.of(
                        String.format(
                                Locale.ROOT,
                                "the rescale at %d s was the job's first: it kept the spare to drain"
                                        + " the configured %.1f s of downtime, where a rescale takes"
                                        + " %.1f s, so it drains in up to %d s",
                                start,
                                prior,
                                real,
                                allowed))
                : Optional.empty();
    }

    private double sourceRate() {
        return rates.entrySet().stream()
                .filter(e -> scenario.operator(e.getKey()).isSource())
                .mapToDouble(Map.Entry::getValue)
                .sum();
    }

    private void checkFinal(Map<String, Integer> last) {
        long second = to - 1;
        for (String id : unsustained(last)) {
            violate(
                    Criterion.FINAL_SUSTAINS,
                    id,
                    second,
                    String.format(
                            "%d instances carry %.1f/s of the %.1f/s" + " needed (optimum %d)",
                            last.get(id),
                            scenario.operator(id).effectiveCapacity(last.get(id)),
                            rates.get(id),
                            optimum.get(id)));
        }
        // until a rescale has been measured, a policy can only plan its configured prior
        boolean measured = firstMeasured >= 0 && firstMeasured < to;
        Predicate<String> ranOnlyAtLast =
                id -> secondTrim.ranOnlyAt(id, last.get(id), configs.size() - 1);
        Optional<Map.Entry<Exemption.Kind, String>> exempt =
                TrimBound.exemption(scenario, criteria, rates, last, measured, ranOnlyAtLast);
        for (SimOperator op : scenario.operators()) {
            boolean linear = op.scalesLinearly();
            int allowed = optimum.get(op.id()) + (linear ? 0 : 1);
            if (last.get(op.id()) > allowed) {
                Violation v =
                        violation(
                                Criterion.FINAL_MINIMAL,
                                op.id(),
                                second,
                                String.format(
                                        "%d instances, optimum %d (%s)",
                                        last.get(op.id()),
                                        optimum.get(op.id()),
                                        linear
                                                ? "linear: exactly the optimum"
                                                : "non-linear: at most one above"));
                exempt.ifPresentOrElse(
                        e -> exemptions.add(new Exemption(v, e.getKey(), e.getValue())),
                        () -> violations.add(v));
            }
        }
    }

    private void violate(Criterion criterion, String operator, long second, String detail) {
        violations.add(violation(criterion, operator, second, detail));
    }

    private Violation violation(Criterion criterion, String operator, long second, String detail) {
        return new Violation(scenario.name(), criterion, operator, second, detail);
    }
}
