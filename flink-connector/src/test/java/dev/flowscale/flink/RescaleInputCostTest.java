package dev.flowscale.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The input an in-place rescale cost, read after it ended from {@code GET jobs/:id/checkpoints}
 * answers shaped as Flink 2.3's (fields cut): only a restore at or after the rescale counts.
 */
class RescaleInputCostTest {
    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final long T = 1_764_600_000_000L;
    private static final Instant PUT = Instant.ofEpochMilli(T + 30_000);
    private static final Instant RUNNING = PUT.plusSeconds(3);

    @AutoClose final LoopbackRest rest = new LoopbackRest();

    @Test
    void aRestoreAfterTheRescaleCostsFromItsCheckpointsTriggerUntilTheJobRanAgain() {
        answer(restored(7, T + 31_000), history(7, T + 12_000));

        assertThat(RescaleInputCost.read(rest.client(), JOB, PUT, RUNNING))
                .contains(Duration.between(Instant.ofEpochMilli(T + 12_000), RUNNING));
    }

    @Test
    void aRestoreFromBeforeTheRescaleIsNotItsRestoreYet() {
        answer(restored(3, T + 1_000), history(3, T - 50_000));

        assertThat(RescaleInputCost.read(rest.client(), JOB, PUT, RUNNING)).isEmpty();
    }

    @Test
    void aJobThatRestoredNothingYetHasNoCostYet() {
        answer("null", "[]");

        assertThat(RescaleInputCost.read(rest.client(), JOB, PUT, RUNNING)).isEmpty();
    }

    @Test
    void aCheckpointOutOfTheHistoryIsReadFromItsDetailsAndTheCostIsNeverBelowTheDowntime() {
        answer(restored(9, T + 31_000), "[]");
        rest.answer(
                "/jobs/" + JOB + "/checkpoints/details/9",
                200,
                () -> "{\"id\": 9, \"trigger_timestamp\": " + (T + 32_000) + "}");

        assertThat(RescaleInputCost.read(rest.client(), JOB, PUT, RUNNING))
                .as("a trigger after the put (clocks apart) costs the downtime")
                .contains(Duration.between(PUT, RUNNING));
    }

    @Test
    void beforeARescaleTheLatestCompletedCheckpointsTriggerBoundsItsCost() {
        String body =
                """
                {"counts": {"in_progress": 0, "completed": 3, "failed": 0},
                 "latest": {"completed": {"id": 3, "trigger_timestamp": %d}, "restored": null},
                 "history": []}
                """
                        .formatted(T + 25_000);
        rest.answer("/jobs/" + JOB + "/checkpoints", 200, () -> body);

        Instant trigger = RescaleInputCost.resumesAtLeastFrom(rest.client(), JOB).orElseThrow();
        assertThat(trigger).isEqualTo(Instant.ofEpochMilli(T + 25_000));
        assertThat(RescaleInputCost.atMost(trigger, PUT, RUNNING)).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void beforeAnyCheckpointCompletedARescaleCostsAtMostEverythingSinceTheJobStarted() {
        answer("null", "[]");
        rest.answer(
                "/jobs/" + JOB, 200, () -> "{\"jid\": \"" + JOB + "\", \"start-time\": " + T + "}");

        assertThat(RescaleInputCost.resumesAtLeastFrom(rest.client(), JOB))
                .contains(Instant.ofEpochMilli(T));
    }

    private void answer(String restored, String history) {
        String body =
                """
                {"counts": {"restored": 1, "in_progress": 0, "completed": 1, "failed": 0},
                 "latest": {"completed": null, "restored": %s}, "history": %s}
                """
                        .formatted(restored, history);
        rest.answer("/jobs/" + JOB + "/checkpoints", 200, () -> body);
    }

    private static String restored(long id, long at) {
        return "{\"id\": %d, \"restore_timestamp\": %d, \"is_savepoint\": false}".formatted(id, at);
    }

    private static String history(long id, long trigger) {
        return "[{\"id\": %d, \"status\": \"COMPLETED\", \"trigger_timestamp\": %d}]"
                .formatted(id, trigger);
    }
}
