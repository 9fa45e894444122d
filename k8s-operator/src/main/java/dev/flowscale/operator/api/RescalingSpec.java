package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/**
 * How a rescale that needs more than the runner pod has is made: by resizing the pod in place where
 * the cluster can, and how long a scale-up the scheduler cannot place waits before it is tried
 * again. A field left out takes the operator's default (Helm runnerDefaults).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RescalingSpec {
    @JsonPropertyDescription(
            "true: when the new parallelism needs more CPU or memory than the pod has, resize the"
                    + " running pod through its resize subresource (Kubernetes 1.33+) and rescale inside it; a cluster that"
                    + " cannot (no subresource, resize Infeasible or Deferred) gets a new pod instead (default the"
                    + " operator's, true)")
    public Boolean inPlacePodResize;

    @Pattern(AutoscalerSpec.DURATION)
    @JsonPropertyDescription(
            "How long a scale-up whose new pod could not be scheduled waits before it is tried"
                    + " again; doubled after each further failure (default the operator's, 1m)")
    public String retryBackoff;

    @Pattern(AutoscalerSpec.DURATION)
    @JsonPropertyDescription(
            "The longest wait between two attempts of a scale-up that cannot be scheduled"
                    + " (default the operator's, 30m)")
    public String maxRetryBackoff;
}
