package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.operator.api.CheckpointFailures;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.runner.api.JobView;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The runner's checkpoint failures reach the StreamJob's status and its Checkpointing condition.
 */
class CheckpointingTest {

    private static final Instant T0 = Instant.parse("2026-12-01T06:00:00Z");

    /**
     * The runner's answer to GET /api/v1/job, as docs/runner-api.md documents its checkpoints
     * object.
     */
    private static CheckpointFailures fromRunner(long failed, int consecutive, String lastFailure)
            throws Exception {
        String json =
                "{\"status\":\"RUNNING\",\"operators\":[],\"checkpoints\":{\"completed\":12,\"failed\":"
                        + failed
                        + ",\"consecutiveFailures\":"
                        + consecutive
                        + ",\"lastCompletedId\":12,\"lastCompletedAt\":"
                        + "\"2026-12-01T05:59:00Z\",\"lastCompletedPath\":\"/data/checkpoints/chk-12\",\"lastFailureAt\":"
                        + (lastFailure == null ? "null" : "\"2026-12-01T05:59:30Z\"")
                        + ",\"lastFailure\":"
                        + (lastFailure == null ? "null" : "\"" + lastFailure + "\"")
                        + "}}";
        return HttpRunnerControl.checkpointFailures(
                new ObjectMapper().readValue(json, JobView.class).checkpoints());
    }

    private static Condition condition(StreamJobStatus status) {
        return Conditions.find(status, Checkpointing.CONDITION).orElseThrow();
    }

    @Test
    void failingCheckpointsSetTheConditionFalseWithTheRunnersReason() throws Exception {
        StreamJobStatus status = new StreamJobStatus();

        Checkpointing.record(
                status,
                fromRunner(2, 2, "checkpoints folder /data/checkpoints is not writable"),
                3L,
                T0);

        assertThat(status.checkpoints.failed).isEqualTo(2);
        assertThat(status.checkpoints.consecutive).isEqualTo(2);
        assertThat(condition(status).getStatus()).isEqualTo("False");
        assertThat(condition(status).getReason()).isEqualTo("CheckpointFailing");
        assertThat(condition(status).getMessage())
                .startsWith(
                        "2 checkpoint(s) in a row failed, the latest at"
                                + " 2026-12-01T05:59:30Z: checkpoints folder /data/checkpoints is not writable");
    }

    @Test
    void aCompletedCheckpointAfterFailuresSetsItTrueAndKeepsTheCount() throws Exception {
        StreamJobStatus status = new StreamJobStatus();
        Checkpointing.record(status, fromRunner(2, 2, "disk full"), 3L, T0);

        Checkpointing.record(status, fromRunner(2, 0, "disk full"), 3L, T0.plusSeconds(30));

        assertThat(condition(status).getStatus()).isEqualTo("True");
        assertThat(condition(status).getLastTransitionTime())
                .isEqualTo(T0.plusSeconds(30).toString());
        assertThat(status.checkpoints.failed).isEqualTo(2);
    }

    @Test
    void theSameFailuresAgainChangeNothing() throws Exception {
        StreamJobStatus status = new StreamJobStatus();
        Checkpointing.record(status, fromRunner(1, 1, "disk full"), 3L, T0);
        String before = io.fabric8.kubernetes.client.utils.Serialization.asJson(status);

        Checkpointing.record(status, fromRunner(1, 1, "disk full"), 3L, T0.plusSeconds(60));

        assertThat(io.fabric8.kubernetes.client.utils.Serialization.asJson(status))
                .isEqualTo(before);
    }

    @Test
    void aHealthyRunnerHasNoFailureFieldsAndATrueCondition() throws Exception {
        StreamJobStatus status = new StreamJobStatus();

        Checkpointing.record(status, fromRunner(0, 0, null), 3L, T0);

        assertThat(status.checkpoints.lastFailure).isNull();
        assertThat(condition(status).getStatus()).isEqualTo("True");
    }
}
