package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/** DS2 autoscaler settings of one job. Durations are written like 30s, 5m, 1h or 500ms. */
@ValidationRule(value = "self.minParallelism <= self.maxParallelism",
        message = "spec.autoscaler.minParallelism must not exceed spec.autoscaler.maxParallelism")
public class AutoscalerSpec {
    static final String DURATION = "^[0-9]+(ms|s|m|h)$";

    @Default("recommend")
    @JsonPropertyDescription("auto: decide and rescale; recommend: decide and report only; off: no autoscaler")
    public AutoscalerMode mode = AutoscalerMode.RECOMMEND;

    @Default("30s")
    @Pattern(DURATION)
    @JsonPropertyDescription("How often the policy decides")
    public String policyInterval = "30s";

    @Default("60s")
    @Pattern(DURATION)
    @JsonPropertyDescription("Metrics dropped after a start or a rescale")
    public String warmUp = "60s";

    @Default("1.0")
    @Min(0.1)
    @Max(1.0)
    @JsonPropertyDescription("Share of an instance's capacity the policy plans to use (0.1 to 1)")
    public double targetUtilization = 1.0;

    @Default("1")
    @Min(1)
    @JsonPropertyDescription("Lowest parallelism of any operator")
    public int minParallelism = 1;

    @Default("32")
    @Min(1)
    @JsonPropertyDescription("Highest parallelism of any operator (at most the job's max parallelism)")
    public int maxParallelism = 32;

    @Default("5m")
    @Pattern(DURATION)
    @JsonPropertyDescription("How long a lower parallelism must be recommended before scaling down")
    public String scaleDownDelay = "5m";

    @Default("false")
    @JsonPropertyDescription("Round parallelism up to a divisor of the key groups so each instance gets as many")
    public boolean keyGroupAlignment;
}
