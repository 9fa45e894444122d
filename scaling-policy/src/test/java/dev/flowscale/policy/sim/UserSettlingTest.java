package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.settings.Setting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * default build covers {@value #JOBS}×6 distinct graphs. What every job meets today: no rescale
 * after a sustaining configuration goes below the need. The other criteria are not met by every job
 * yet; {@link UserSuiteReport} prints, per profile and downtime, the jobs that met every criterion,
 * that met them where the computed bounds allow, and that missed one, with every miss (figures in
 * docs/autoscaler.md).
 */
class UserSettlingTest {

    static final int JOBS = UserSuiteReport.DEFAULT_BUILD_JOBS;

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
    void noRescaleAfterASustainingConfigurationGoesBelowTheNeed(
            Setting.Profile profile, Duration downtime, int from) {
        UserSuiteReport.Figures figures = UserSuiteReport.figures(profile, downtime, from, JOBS);

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
    }
}
