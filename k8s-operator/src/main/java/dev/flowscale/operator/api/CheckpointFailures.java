package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/**
 * The runner's periodic checkpoint failures, as its job API reports them (GET /api/v1/job, {@code
 * checkpoints}): only what a failure changes, so a healthy job's status is not rewritten at every
 * checkpoint.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CheckpointFailures {

    @JsonPropertyDescription("Checkpoints that failed since the runner started")
    public Long failed;

    @JsonPropertyDescription("Checkpoints that failed in a row; 0 once one completes again")
    public Integer consecutive;

    @JsonPropertyDescription("When the latest failure happened")
    public String lastFailureAt;

    @JsonPropertyDescription("Why the latest checkpoint failed")
    public String lastFailure;

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointFailures c
                && Objects.equals(failed, c.failed)
                && Objects.equals(consecutive, c.consecutive)
                && Objects.equals(lastFailureAt, c.lastFailureAt)
                && Objects.equals(lastFailure, c.lastFailure);
    }

    @Override
    public int hashCode() {
        return Objects.hash(failed, consecutive, lastFailureAt, lastFailure);
    }
}
