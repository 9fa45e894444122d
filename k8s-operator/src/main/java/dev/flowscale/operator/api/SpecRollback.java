package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * A change of the pod template (args, image, resources, pod template) whose new runner did not run:
 * the runner was restored with the spec it ran before, and the rolled-back generation is not
 * applied again until the spec changes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SpecRollback {
    @JsonPropertyDescription("metadata.generation of the spec that was rolled back")
    public Long generation;

    @JsonPropertyDescription("Why it was rolled back and what runs instead")
    public String message;

    @JsonPropertyDescription("When the previous spec ran again (RFC 3339)")
    public String time;
}
