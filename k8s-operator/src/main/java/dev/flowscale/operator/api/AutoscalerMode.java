package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What the autoscaler does with a decision. */
public enum AutoscalerMode {
    /** Decide and rescale the job. */
    @JsonProperty("auto")
    AUTO,
    /** Decide and publish the decision in status and Events only. */
    @JsonProperty("recommend")
    RECOMMEND,
    /** Do not run the autoscaler. */
    @JsonProperty("off")
    OFF
}
