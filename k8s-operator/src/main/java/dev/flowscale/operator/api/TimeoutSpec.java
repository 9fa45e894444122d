package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/**
 * How long the runner may take; a field left out takes the operator's default (Helm
 * runnerTimeouts).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TimeoutSpec {
    @Pattern(AutoscalerSpec.DURATION)
    @JsonPropertyDescription(
            "How long a new runner may take to become ready before the job shows phase Failed"
                    + " with reason DeployTimeout (default the operator's, 5m)")
    public String deploy;

    @Pattern(AutoscalerSpec.DURATION)
    @JsonPropertyDescription(
            "How long a rescale may take before it is rolled back (default the operator's, 3m)")
    public String rescale;
}
