package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.flowscale.common.DurationText;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * DS2 autoscaler settings of one job: one field per setting of the settings table ({@code
 * dev.flowscale.policy.settings.Setting}, docs/autoscaler-settings.md), of the same name. Durations
 * are written like 30s, 5m, 1h or 500ms. A field left out takes the operator's default (Helm value
 * autoscalerDefaults), else the table's cluster default given in its description; the operator
 * resolves them, so null here means "not set".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value =
                "!has(self.minParallelism) || !has(self.maxParallelism)"
                        + " || self.minParallelism <= self.maxParallelism",
        message = "spec.autoscaler.minParallelism must not exceed spec.autoscaler.maxParallelism")
public class AutoscalerSpec {
    static final String DURATION = DurationText.SCHEMA_PATTERN;

    @JsonPropertyDescription(
            "auto: decide and rescale; recommend: decide and report only; off: no autoscaler"
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
    @JsonPropertyDescription(
            "Share of an instance's capacity the policy plans to use, 0.1 to 1 (default 1.0)")
    public Double targetUtilization;

    @Min(1)
    @JsonPropertyDescription("Lowest parallelism of any operator (default 1)")
    public Integer minParallelism;

    @Min(1)
    @JsonPropertyDescription(
            "Highest parallelism of any operator, at most the job's key groups (default 32)")
    public Integer maxParallelism;

    @Pattern(DURATION)
    @JsonPropertyDescription(
            "Time in which a backlog must drain, including what a rescale's own downtime adds;"
                    + " 0s disables catch-up (default 5m)")
    public String catchUp;

    @Pattern(DURATION)
    @JsonPropertyDescription(
            "Rescale downtime assumed until one has been measured on the job (default 30s)")
    public String expectedDowntime;

    @Min(0.01)
    @Max(1.0)
    @JsonPropertyDescription(
            "Percentile of the measured rescale downtimes that decisions plan for (default 0.9)")
    public Double downtimePercentile;

    @Pattern(DURATION)
    @JsonPropertyDescription(
            "How long a lower parallelism must be recommended, at one load, before scaling down"
                    + " (default 5m)")
    public String scaleDownDelay;

    @Pattern(DURATION)
    @JsonPropertyDescription("Least time between two scale-downs (default 0s)")
    public String scaleDownInterval;

    @Min(0)
    @JsonPropertyDescription(
            "Rescale budget: at most this many rescales start in any hour; 0 = no budget (default 6)")
    public Integer maxRescalesPerHour;

    @Pattern(DURATION)
    @JsonPropertyDescription(
            "Backlog, in seconds of the source's rate, that may stand without a rescale (default 0s)")
    public String targetMaxLag;

    @Pattern(DURATION)
    @JsonPropertyDescription(
            "A scale-down must save more instance-time over this horizon than its downtime costs"
                    + " (default 1h)")
    public String savingsHorizon;

    @Min(0.01)
    @Max(0.99)
    @JsonPropertyDescription(
            "Relative change of the sources' rate that counts as a load change (default 0.1)")
    public Double loadChange;

    @JsonPropertyDescription(
            "Size operators with capacity curves fitted to the parallelisms the job has run at"
                    + " (default true)")
    public Boolean learnScalability;

    @Min(0.5)
    @Max(1.0)
    @JsonPropertyDescription(
            "Exponent a of capacity ~ p^a assumed above the only parallelism an operator was"
                    + " measured at (default 0.8)")
    public Double scalabilityPrior;

    @JsonPropertyDescription(
            "A needed rescale waits for a second window in a row, so it is sized wholly at the new"
                    + " load (default true)")
    public Boolean confirmNeed;

    @Min(0)
    @Max(0.49)
    @JsonPropertyDescription(
            "Measurement noise tolerated before a running operator counts as short of its target"
                    + " (default 0.02)")
    public Double noiseTolerance;

    @Min(0)
    @Max(1)
    @JsonPropertyDescription(
            "Relative change per operator tolerated without a scale-down (default 0)")
    public Double deadBand;

    @JsonPropertyDescription(
            "Size keyed operators for their hottest instance, from per-instance rates (default true)")
    public Boolean skewCorrection;

    @JsonPropertyDescription(
            "Take true rates over useful time less the time operators waited for a core"
                    + " (default true)")
    public Boolean coreWaitCorrection;

    @JsonPropertyDescription(
            "Round parallelism up to a divisor of the key groups so each instance gets as many"
                    + " (default false)")
    public Boolean keyGroupAlignment;

    @JsonPropertyDescription(
            "Scale ahead of a forecast of each source's rate fitted from its recent history"
                    + " (default false)")
    public Boolean predictive;

    @Pattern(DURATION)
    @JsonPropertyDescription(
            "Period of the source rate's pattern for predictive mode; 0s detects it (default 0s)")
    public String forecastPeriod;
}
