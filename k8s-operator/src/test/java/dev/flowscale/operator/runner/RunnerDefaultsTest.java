package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.StreamJob;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunnerDefaultsTest {

    @Test
    void withNothingSetTheRunnerKeepsThreeSnapshotsAndResizesPodsInPlace() {
        RunnerDefaults defaults = RunnerDefaults.from(Map.<String, String>of()::get);

        assertThat(defaults).isEqualTo(RunnerDefaults.BUILT_IN);
        assertThat(defaults.retain()).isEqualTo(3);
        assertThat(defaults.inPlaceResize()).isTrue();
        assertThat(defaults.retryBackoff()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void theHelmValuesReachTheDefaultsThroughTheEnvironment() {
        RunnerDefaults defaults =
                RunnerDefaults.from(
                        Map.of(
                                        RunnerDefaults.RETAIN_ENV,
                                        "5",
                                        RunnerDefaults.IN_PLACE_RESIZE_ENV,
                                        "false",
                                        RunnerDefaults.RETRY_BACKOFF_ENV,
                                        "30s",
                                        RunnerDefaults.MAX_RETRY_BACKOFF_ENV,
                                        "10m")
                                ::get);

        assertThat(defaults)
                .isEqualTo(
                        new RunnerDefaults(
                                5, false, Duration.ofSeconds(30), Duration.ofMinutes(10)));
    }

    @Test
    void aBadRetentionStopsTheOperatorNamingTheVariableAndTheHelmValue() {
        assertThatThrownBy(() -> RunnerDefaults.from(Map.of(RunnerDefaults.RETAIN_ENV, "0")::get))
                .hasMessageStartingWith("FLOWSCALE_RETAIN is '0'")
                .hasMessageContaining("runnerDefaults.retain");
        assertThatThrownBy(
                        () ->
                                RunnerDefaults.from(
                                        Map.of(RunnerDefaults.IN_PLACE_RESIZE_ENV, "yes")::get))
                .hasMessageContaining("set true or false");
    }

    @Test
    void whatTheJobSetsWinsAndWhatItLeavesOutTakesTheDefault() {
        StreamJob job = StreamJobs.wordCount("ns", "wc");
        job.getSpec().savepoints.retain = 9;
        job.getSpec().rescaling.inPlacePodResize = false;

        new RunnerDefaults(5, true, Duration.ofSeconds(30), Duration.ofMinutes(10)).resolveJob(job);

        assertThat(job.getSpec().savepoints.retain).isEqualTo(9);
        assertThat(job.getSpec().rescaling.inPlacePodResize).isFalse();
        assertThat(job.getSpec().rescaling.retryBackoff).isEqualTo("30s");
        assertThat(job.getSpec().rescaling.maxRetryBackoff).isEqualTo("600s");
    }
}
