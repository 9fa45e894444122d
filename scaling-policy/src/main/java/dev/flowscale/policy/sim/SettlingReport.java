package dev.flowscale.policy.sim;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How a {@link Trajectory} settled after each load change, judged by {@link SettlingCriteria}, with
 * every violation naming its scenario, operator and time, and the run's summary figures. Build with
 * {@link #check}.
 */
public record SettlingReport(
        String scenario,
        List<LoadChange> loadChanges,
        List<Violation> violations,
        List<Exemption> exemptions,
        Summary summary) {

    /** What is checked; see {@link SettlingCriteria}. */
    public enum Criterion {
        RESCALES_TO_SUSTAIN,
        TRIMS_AFTER_SUSTAIN,
        REVISIT_WITHOUT_LOAD_CHANGE,
        BACKLOG_DRAINED,
        FINAL_SUSTAINS,
        FINAL_MINIMAL,
        /** Below its need for longer than {@link SettlingCriteria#sustainSeconds} allows. */
        SUSTAINED_IN_TIME,
        /** A configuration entered after a sustaining one that does not sustain. */
        NEVER_BELOW_NEED
    }

    /** One violated criterion: where ({@code operator} is "-" for the whole job) and when. */
    public record Violation(
            String scenario, Criterion criterion, String operator, long second, String detail) {
        @Override
        public String toString() {
            return scenario + " @" + second + "s " + criterion + " " + operator + ": " + detail;
        }
    }

    /**
     * A criterion missed where the report shows that meeting it was impossible or not worth its
     * cost; it is listed apart from the violations, with the computed bound or cost.
     */
    public record Exemption(Violation violation, Kind kind, String why) {

        /** Why the missed criterion is not counted as a failure. */
        public enum Kind {
            /** No policy drains the backlog of the rescale's downtime alone in time. */
            IMPOSSIBLE_FOR_ANY_POLICY,
            /**
             * No policy that sees the change one interval after it, from the configuration that ran
             * at the change, drains in time.
             */
            IMPOSSIBLE_FOR_A_REACTIVE_POLICY,
            /** The trim to the minimum would not pay for its downtime (the policy's cost test). */
            TRIM_NOT_WORTH_ITS_DOWNTIME,
            /**
             * The next load change came before the criteria's deadlines: no policy could be judged
             * on this one.
             */
            CUT_SHORT_BY_THE_NEXT_CHANGE,
            /**
             * A second trim after a first that lowered a non-linear operator from the only
             * parallelism it had run at: no policy knew its capacity below.
             */
            CURVE_UNKNOWN_BELOW_THE_TRIM,
            /**
             * A second trim after a first that lowered a non-linear operator, lowering it further
             * on the curve measured at both parallelisms, and saving more than its downtime costs.
             */
            CURVE_FITTED_AFTER_THE_TRIM,
            /**
             * A final configuration above the minimum where a non-linear operator ran at one
             * parallelism only: sized with its capacity per instance there (all a policy knew of
             * its curve below), the trim saves no instances net.
             */
            CURVE_UNKNOWN_BELOW_THE_FINAL,
            /**
             * A second trim after a first that was the job's first rescale, planned on a configured
             * downtime off the real one: no policy had measured the downtime.
             */
            DOWNTIME_UNKNOWN_AT_THE_TRIM,
            /**
             * A late drain after the job's first rescale, planned to drain a configured downtime
             * below the real one: no policy had measured the downtime.
             */
            DOWNTIME_UNKNOWN_AT_THE_RESCALE
        }

        @Override
        public String toString() {
            return violation + " [" + kind + ": " + why + "]";
        }
    }

    /**
     * The outcome of one load change at {@code second}.
     *
     * @param rescalesToSustain rescales until a sustaining configuration ran, -1 if none did
     * @param trims rescales after the sustaining configuration
     * @param secondsToSustain from the change until a sustaining configuration ran, -1 if never
     * @param drainedAt first second the backlog was drained after the last rescale, -1 if never
     * @param revisits configurations entered again before the next load change
     */
    public record LoadChange(
            long second,
            Map<String, Integer> optimum,
            Map<String, Integer> finalParallelism,
            int rescalesToSustain,
            int trims,
            long secondsToSustain,
            long drainedAt,
            int revisits) {}

    /**
     * Figures of the whole run.
     *
     * @param decisions decisions that asked for a new parallelism
     * @param rescales rescales the job went through
     * @param worstSecondsToSustain longest time from a load change to a sustaining configuration,
     *     -1 if some change never reached one
     * @param overProvisionedInstanceMinutes Σ over time and operators of (p − p_optimal)+
     * @param drained whether the backlog drained in time after every change
     */
    public record Summary(
            int decisions,
            int rescales,
            long worstSecondsToSustain,
            double overProvisionedInstanceMinutes,
            double peakBacklog,
            double finalBacklog,
            boolean drained,
            int revisits) {}

    public SettlingReport {
        loadChanges = List.copyOf(loadChanges);
        violations = List.copyOf(violations);
        exemptions = List.copyOf(exemptions);
    }

    /** Judges {@code trajectory} after each of the scenario's load changes (its start included). */
    public static SettlingReport check(Trajectory trajectory, SettlingCriteria criteria) {
        Scenario scenario = trajectory.scenario();
        List<Long> changes = changeTimes(scenario);
        long end = trajectory.points().get(trajectory.points().size() - 1).second() + 1;
        List<Rescale> rescales = Rescale.of(trajectory);
        List<LoadChange> outcomes = new ArrayList<>();
        List<Violation> violations = new ArrayList<>();
        List<Exemption> exemptions = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            long to = i + 1 < changes.size() ? changes.get(i + 1) : end;
            PhaseCheck phase = new PhaseCheck(trajectory, criteria, rescales, changes.get(i), to);
            outcomes.add(phase.outcome());
            violations.addAll(phase.violations());
            exemptions.addAll(phase.exemptions());
        }
        return new SettlingReport(
                scenario.name(),
                outcomes,
                violations,
                exemptions,
                summary(trajectory, rescales, outcomes, violations, exemptions, changes));
    }

    private static Summary summary(
            Trajectory t,
            List<Rescale> rescales,
            List<LoadChange> outcomes,
            List<Violation> violations,
            List<Exemption> exemptions,
            List<Long> changes) {
        long worst =
                outcomes.stream().anyMatch(o -> o.secondsToSustain() < 0)
                        ? -1
                        : outcomes.stream().mapToLong(LoadChange::secondsToSustain).max().orElse(0);
        Map<Long, Map<String, Integer>> optimum = new LinkedHashMap<>();
        outcomes.forEach(o -> optimum.put(o.second(), o.optimum()));
        double stepSeconds = t.points().get(0).second();
        double overSeconds =
                t.overProvisionedInstanceSeconds(
                        second -> optimum.get(phaseStart(changes, second)), stepSeconds);
        // a drain no policy could make in time is still a backlog that did not drain in time
        boolean drained =
                violations.stream().noneMatch(v -> v.criterion() == Criterion.BACKLOG_DRAINED)
                        && exemptions.stream()
                                .noneMatch(
                                        e ->
                                                e.violation().criterion()
                                                        == Criterion.BACKLOG_DRAINED);
        return new Summary(
                t.scaleDecisions().size(),
                rescales.size(),
                worst,
                overSeconds / 60,
                t.points().stream().mapToDouble(Trajectory.Point::backlog).max().orElse(0),
                t.points().get(t.points().size() - 1).backlog(),
                drained,
                outcomes.stream().mapToInt(LoadChange::revisits).sum());
    }

    /** The start and every second at which some source's rate changes. */
    static List<Long> changeTimes(Scenario scenario) {
        List<Long> times = new ArrayList<>(List.of(0L));
        scenario.operators().stream()
                .filter(SimOperator::isSource)
                .flatMap(op -> op.rate().changeTimes().stream())
                .distinct()
                .sorted()
                .forEach(times::add);
        return times;
    }

    private static long phaseStart(List<Long> changes, long second) {
        long start = 0;
        for (long c : changes) {
            if (c <= second) {
                start = c;
            }
        }
        return start;
    }

    /**
     * Whether every criterion held or was missed only where the report shows it impossible or not
     * worth its cost ({@link #exemptions()}).
     */
    public boolean settled() {
        return violations.isEmpty();
    }

    /** Exemptions counted per kind, in kind order. */
    public Map<Exemption.Kind, Long> exemptionCounts() {
        return exemptions.stream()
                .collect(
                        Collectors.groupingBy(
                                Exemption::kind,
                                () -> new EnumMap<>(Exemption.Kind.class),
                                Collectors.counting()));
    }

    /** Violations counted per criterion, in criterion order. */
    public Map<Criterion, Long> violationCounts() {
        return violations.stream()
                .collect(
                        Collectors.groupingBy(
                                Violation::criterion,
                                () -> new EnumMap<>(Criterion.class),
                                Collectors.counting()));
    }
}
