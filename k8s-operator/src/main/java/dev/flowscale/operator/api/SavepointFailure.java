package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * A change of the runner whose stop-with-savepoint failed on every attempt: the error, and whether
 * the change went on from the latest checkpoint (spec.savepoints.upgradeMode last-state) or was
 * abandoned. A change abandoned so is not tried again for the same generation of the spec.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SavepointFailure {
    @JsonPropertyDescription("metadata.generation of the spec the change applied")
    public Long generation;

    @JsonPropertyDescription("What asked for the change: spec, autoscaler, suspend or upgrade")
    public String reason;

    @JsonPropertyDescription("Stop-with-savepoint requests made, all failed")
    public Integer attempts;

    @JsonPropertyDescription("The last attempt's error, as the runner said it")
    public String error;

    @JsonPropertyDescription(
            "The checkpoint the change restored instead (upgradeMode last-state); unset: the change"
                    + " was abandoned")
    public String fallbackCheckpoint;

    @JsonPropertyDescription("When the last attempt failed (RFC 3339)")
    public String time;
}
