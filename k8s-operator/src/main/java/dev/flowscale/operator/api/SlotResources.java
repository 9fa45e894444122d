package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/** CPU and memory of one task slot (one operator instance). */
public class SlotResources {
    @Default("250m")
    @Pattern("^[0-9]+(\\.[0-9]+)?m?$")
    @JsonPropertyDescription("CPU per slot, a Kubernetes quantity such as 250m or 1")
    public String cpu = "250m";

    @Default("256Mi")
    @Pattern("^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$")
    @JsonPropertyDescription("Memory per slot, a Kubernetes quantity such as 256Mi")
    public String memory = "256Mi";

    @Default("0")
    @Min(0)
    @Max(4)
    @JsonPropertyDescription(
            "Extra slots the runner pod is sized for, as a share of the total parallelism (0.5:"
                    + " half as many again), so that a rescale within them happens in place, without a new pod")
    public double headroom;
}
