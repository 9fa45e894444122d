package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.settings.Setting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 28's jobs as users start them ({@link UserScenarios}: random starting configurations,
 * bounds below the optimum, downtimes ten times off the prior, sub-linear and hot-key operators, a
 * load change while the first rescale is in flight) with the cluster and the local defaults at 2,
 * 30 and 60 s of rescale downtime. Each of the six runs takes its own {@value #JOBS} jobs, so the
 * default build covers {@value #JOBS}×6 distinct graphs, each judged by every settling criterion
 * (at most one rescale to sustain and one trim per load change, no revisit, drained within the
 * catch-up time plus one interval, final minimal, never below the need). A miss counts only where
 * no computed bound shows it infeasible (a bound, a drain longer than the catch-up time, a downtime
 * or curve no policy had measured, a trim that does not pay). Every job meets the last criterion;
 * the others are not met by every job yet: each run asserts that at least as many jobs settle as
 * {@link #SETTLED} records (met every criterion, or met them where the computed bounds allow), that
 * no more jobs than {@link #LATE_TO_SUSTAIN} records stay below their need longer than a reactive
 * policy must plus one interval, and prints every miss (figures in docs/autoscaler.md).
 */
class UserSettlingTest {

    static final int JOBS = UserSuiteReport.DEFAULT_BUILD_JOBS;

    /**
     * Per profile and downtime (2, 30, 60 s), the jobs of the run that settle today: a regression
     * floor, raised as the policy meets more of them.
     */
    static final Map<Setting.Profile, List<Integer>> SETTLED =
            Map.of(
                    Setting.Profile.CLUSTER, List.of(34, 34, 34),
                    Setting.Profile.LOCAL, List.of(34, 34, 34));

    /**
     * Per profile and downtime, the jobs of the run left below their need longer than the time a
     * reactive policy takes plus one policy interval ({@link SettlingCriteria#sustainSeconds}): a
     * ceiling, lowered as the policy meets more of them: none is left.
     */
    static final Map<Setting.Profile, List<Integer>> LATE_TO_SUSTAIN =
            Map.of(
                    Setting.Profile.CLUSTER, List.of(0, 0, 0),
                    Setting.Profile.LOCAL, List.of(0, 0, 0));

    static Stream<Arguments> runs() {
        List<Arguments> runs = new ArrayList<>();
        int slice = 0;
        for (Setting.Profile profile : UserSuiteReport.PROFILES) {
            for (Duration downtime : SettlingSuiteReport.DOWNTIMES) {
                runs.add(Arguments.of(profile, downtime, slice++ * JOBS));
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0} defaults at a {1} rescale downtime, jobs from {2}")
    @MethodSource("runs")
    void jobsSettleWhereTheComputedBoundsAllowAndNoneGoesBelowItsNeedAfterSustaining(
            Setting.Profile profile, Duration downtime, int from) {
        UserSuiteReport.Figures figures = UserSuiteReport.figures(profile, downtime, from, JOBS);
        UserSuiteReport.print(System.out, figures, false);

        List<SettlingReport.Violation> below =
                figures.missed().stream()
                        .flatMap(r -> r.violations().stream())
                        .filter(v -> v.criterion() == SettlingReport.Criterion.NEVER_BELOW_NEED)
                        .toList();
        assertThat(figures.jobs()).isEqualTo(JOBS);
        assertThat(below)
                .as(
                        figures
                                + "\n"
                                + below.stream()
                                        .map(Object::toString)
                                        .collect(Collectors.joining("\n")))
                .isEmpty();
        long late =
                figures.missed().stream()
                        .filter(
                                r ->
                                        r.violations().stream()
                                                .anyMatch(
                                                        v ->
                                                                v.criterion()
                                                                        == SettlingReport.Criterion
                                                                                .SUSTAINED_IN_TIME))
                        .count();
        int row = SettlingSuiteReport.DOWNTIMES.indexOf(downtime);
        assertThat(late)
                .as(figures + ": jobs below their need for longer than allowed")
                .isLessThanOrEqualTo(LATE_TO_SUSTAIN.get(profile).get(row));
        int settled = figures.met() + figures.metWithinBounds();
        assertThat(settled)
                .as(figures.toString())
                .isGreaterThanOrEqualTo(SETTLED.get(profile).get(row));
    }
}
