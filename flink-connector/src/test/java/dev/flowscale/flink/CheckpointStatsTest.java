package dev.flowscale.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@code GET jobs/:id/checkpoints} answers, shaped as Flink 2.3's (CheckpointingStatistics, fields
 * cut): the latest completed checkpoint, the restore, the history's trigger times, and when the
 * checkpoints are slow enough to say so.
 */
class CheckpointStatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T = 1_764_600_000_000L;

    private static final String ANSWER =
            """
            {"counts": {"restored": 1, "total": 9, "in_progress": 1, "completed": 6, "failed": 2},
             "latest": {
               "completed": {"className": "completed", "id": 7, "status": "COMPLETED",
                             "is_savepoint": false, "trigger_timestamp": %d,
                             "latest_ack_timestamp": %d, "end_to_end_duration": 41000},
               "savepoint": null, "failed": null,
               "restored": {"id": 5, "restore_timestamp": %d, "is_savepoint": false,
                            "external_path": "file:/tmp/cp/chk-5"}},
             "history": [
               {"className": "in_progress", "id": 8, "status": "IN_PROGRESS", "trigger_timestamp": %d},
               {"className": "completed", "id": 7, "status": "COMPLETED", "trigger_timestamp": %d},
               {"className": "completed", "id": 5, "status": "COMPLETED", "trigger_timestamp": %d}]}
            """
                    .formatted(T, T + 41_000, T + 20_000, T + 42_000, T, T - 96_000);

    @Test
    void readsTheLatestCompletedCheckpointTheRestoreAndTheTriggerTimes() throws Exception {
        CheckpointStats s = CheckpointStats.parse(JSON.readTree(ANSWER));

        assertThat(s.latestCompleted()).isEqualTo(7);
        assertThat(s.latestTrigger()).contains(Instant.ofEpochMilli(T));
        assertThat(s.latestDuration()).contains(Duration.ofSeconds(41));
        assertThat(s.inProgress()).isEqualTo(1);
        assertThat(s.inProgressTrigger()).contains(Instant.ofEpochMilli(T + 42_000));
        assertThat(s.failed()).isEqualTo(2);
        assertThat(s.restored())
                .contains(new CheckpointStats.Restore(5, Instant.ofEpochMilli(T + 20_000)));
        assertThat(s.triggerOf(5)).contains(Instant.ofEpochMilli(T - 96_000));
        assertThat(s.triggerOf(7)).contains(Instant.ofEpochMilli(T));
        assertThat(s.triggerOf(3)).isEmpty();
    }

    @Test
    void aJobWithoutCheckpointsHasNoneCompletedAndNoRestore() throws Exception {
        CheckpointStats s =
                CheckpointStats.parse(
                        JSON.readTree(
                                """
                                {"counts": {"restored": 0, "total": 0, "in_progress": 0,
                                            "completed": 0, "failed": 0},
                                 "latest": {"completed": null, "savepoint": null,
                                            "failed": null, "restored": null},
                                 "history": []}
                                """));

        assertThat(s.latestCompleted()).isEqualTo(-1);
        assertThat(s.age(Instant.ofEpochMilli(T))).isEmpty();
        assertThat(s.restored()).isEmpty();
        assertThat(s.inProgressTrigger()).isEmpty();
        assertThat(s.slowNote(Instant.ofEpochMilli(T))).isEmpty();
    }

    @Test
    void saysWhenTheLatestCheckpointIsOlderThanTenSeconds() throws Exception {
        CheckpointStats s = CheckpointStats.parse(JSON.readTree(ANSWER));

        assertThat(s.slowNote(Instant.ofEpochMilli(T + 9_000))).isEmpty();
        assertThat(s.slowNote(Instant.ofEpochMilli(T + 96_000)))
                .hasValueSatisfying(
                        n ->
                                assertThat(n)
                                        .startsWith(
                                                "Flink checkpoints are slow: the latest completed one was 96 s"
                                                        + " old at the last sample (it took 41 s end to end)")
                                        .contains("re-reads the input since")
                                        .contains(
                                                "execution.checkpointing.aligned-checkpoint-timeout"));
    }
}
