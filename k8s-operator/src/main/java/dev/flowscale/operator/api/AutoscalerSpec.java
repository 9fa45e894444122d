package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * DS2 autoscaler settings of one job. Durations are written like 30s, 5m, 1h or 500ms. A field
 * left out takes the operator's default (Helm value autoscalerDefaults), else the built-in one
 * given in its description; the operator resolves them, so null here means "not set".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.minParallelism) || !has(self.maxParallelism)"
        + " || self.minParallelism <= self.maxParallelism",
        message = "spec.autoscaler.minParallelism must not exceed spec.autoscaler.maxParallelism")
public class AutoscalerSpec {
    static final String DURATION = "^[0-9]+(ms|s|m|h)$";

    @JsonPropertyDescription("auto: decide and rescale; recommend: decide and report only; off: no autoscaler"
            + " (default recommend)")
    public AutoscalerMode mode;

    @Pattern(DURATION)
    @JsonPropertyDescription("How often the policy decides (default 30s)")
    public String policyInterval;

    @Pattern(DURATION)
    @JsonPropertyDescription("Metrics dropped after a start or a rescale (default 60s)")
    public String warmUp;

    @Min(0.1)
    @Max(1.0)
    @JsonPropertyDescription("Share of an instance's capacity the policy plans to use, 0.1 to 1 (default 1.0)")
    public Double targetUtilization;

    @Min(1)
    @JsonPropertyDescription("Lowest parallelism of any operator (default 1)")
    public Integer minParallelism;

    @Min(1)
    @JsonPropertyDescription("Highest parallelism of any operator, at most the job's max parallelism (default 32)")
    public Integer maxParallelism;

    @Pattern(DURATION)
    @JsonPropertyDescription("How long a lower parallelism must be recommended before scaling down (default 5m)")
    public String scaleDownDelay;

    @JsonPropertyDescription("Round parallelism up to a divisor of the key groups so each instance gets as many"
            + " (default false)")
    public Boolean keyGroupAlignment;
}
