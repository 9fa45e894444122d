package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.RescalingSpec;
import dev.flowscale.operator.api.StreamJobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScaleUpBackoffTest {
    static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");
    static final Map<String, Integer> BIG = Map.of("count", 1, "split", 4);

    @Test
    void theWaitDoublesWithEachFailedAttemptUpToTheMaximum() {
        RescalingSpec spec = spec("1m", "5m");

        assertThat(ScaleUpBackoff.wait(spec, 1)).isEqualTo(Duration.ofMinutes(1));
        assertThat(ScaleUpBackoff.wait(spec, 2)).isEqualTo(Duration.ofMinutes(2));
        assertThat(ScaleUpBackoff.wait(spec, 3)).isEqualTo(Duration.ofMinutes(4));
        assertThat(ScaleUpBackoff.wait(spec, 4)).isEqualTo(Duration.ofMinutes(5));
        assertThat(ScaleUpBackoff.wait(spec, 60)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aBlockedScaleUpWaitsUntilItsNextRetryAndOnlyForTheSameParallelismAndSpec() {
        StreamJobStatus status = new StreamJobStatus();
        ScaleUpBackoff.block(status, change(BIG, 3L), spec("1m", "30m"), NOW);

        assertThat(ScaleUpBackoff.remaining(status, BIG, 3L, NOW.plusSeconds(59)))
                .hasValue(Duration.ofSeconds(1));
        assertThat(ScaleUpBackoff.remaining(status, BIG, 3L, NOW.plusSeconds(60))).isEmpty();
        assertThat(ScaleUpBackoff.stale(status, Map.of("count", 1, "split", 3), 3L))
                .as("the load changed")
                .isTrue();
        assertThat(ScaleUpBackoff.stale(status, BIG, 4L)).as("the spec changed").isTrue();
        assertThat(ScaleUpBackoff.stale(status, BIG, 3L)).isFalse();
    }

    @Test
    void aFurtherFailureOfTheSameScaleUpCountsAsTheNextAttempt() {
        StreamJobStatus status = new StreamJobStatus();
        ScaleUpBackoff.block(status, change(BIG, 3L), spec("1m", "30m"), NOW);
        ScaleUpBackoff.block(status, change(BIG, 3L), spec("1m", "30m"), NOW.plusSeconds(70));

        assertThat(status.blockedScaleUp.attempts).isEqualTo(2);
        assertThat(status.blockedScaleUp.nextRetry).isEqualTo(NOW.plusSeconds(70 + 120).toString());
        assertThat(status.blockedScaleUp.message).contains("Insufficient cpu");
    }

    @Test
    void onlyAnUnschedulableConditionSinceTheChangeStartedCounts() {
        StreamJobStatus status = new StreamJobStatus();
        status.phase = JobPhase.Rescaling;
        status.pending = change(BIG, 3L);
        status.pending.started = NOW.toString();
        RunnerWatch.record(
                status, Optional.of(RunnerWatchTest.UNSCHEDULABLE), 3L, NOW.minusSeconds(5));
        assertThat(ScaleUpBackoff.unschedulable(status))
                .as("a condition from before the change")
                .isEmpty();

        status.conditions.clear();
        RunnerWatch.record(
                status, Optional.of(RunnerWatchTest.UNSCHEDULABLE), 3L, NOW.plusSeconds(2));
        assertThat(ScaleUpBackoff.unschedulable(status))
                .hasValueSatisfying(
                        m ->
                                assertThat(m)
                                        .contains("0/3 nodes are available: 3 Insufficient cpu."));
    }

    private static PendingChange change(Map<String, Integer> to, Long generation) {
        PendingChange c = new PendingChange();
        c.to.putAll(to);
        c.generation = generation;
        c.unschedulable = "0/3 nodes are available: 3 Insufficient cpu.";
        return c;
    }

    private static RescalingSpec spec(String first, String max) {
        RescalingSpec spec = new RescalingSpec();
        spec.retryBackoff = first;
        spec.maxRetryBackoff = max;
        return spec;
    }
}
