package dev.flowscale.engine.userjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UserJobCommandTest {
    private static final Set<String> RUNNER =
            Set.of("job-jar", "job-class", "metrics-port", "parallelism");

    @Test
    void theRunnersOptionsStayWithTheRunnerAndEveryOtherOptionGoesToTheJob() {
        UserJobCommand split =
                UserJobCommand.split(
                        List.of(
                                "--job-jar",
                                "a.jar",
                                "--job-class=C",
                                "--rate",
                                "500",
                                "--verbose",
                                "--parallelism",
                                "sum=2",
                                "--words=3"),
                        RUNNER,
                        Set.of("no-instrumentation"));
        assertThat(split.runnerArgs())
                .containsExactly("--job-jar", "a.jar", "--job-class=C", "--parallelism", "sum=2");
        assertThat(split.jobOptions())
                .containsExactly(
                        Map.entry("rate", "500"),
                        Map.entry("verbose", "true"),
                        Map.entry("words", "3"));
    }

    @Test
    void aRunIsAUserJobsWhenItNamesAJobJarOrClass() {
        assertThat(UserJobCommand.isUserJob(List.of("--job-class", "C"))).isTrue();
        assertThat(UserJobCommand.isUserJob(List.of("--job-jar=a.jar"))).isTrue();
        assertThat(UserJobCommand.isUserJob(List.of("wordcount", "--rate", "5"))).isFalse();
    }

    @Test
    void aWordThatIsNotAnOptionIsRefused() {
        assertThatThrownBy(
                        () ->
                                UserJobCommand.split(
                                        List.of("--job-class", "C", "D"), RUNNER, Set.of()))
                .hasMessageStartingWith("unexpected argument 'D' after C");
    }
}
