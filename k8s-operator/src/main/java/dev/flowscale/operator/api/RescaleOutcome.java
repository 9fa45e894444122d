package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the last change of the runner's parallelism went: which path it took and how long the job was
 * down.
 */
public class RescaleOutcome {
    @JsonPropertyDescription("When it finished (RFC 3339)")
    public String time;

    @JsonPropertyDescription(
            "in-place (inside the running pod), in-place-resize (the pod resized, then"
                    + " inside it) or pod-replacement (savepoint and a new pod)")
    public String path;

    @JsonPropertyDescription("Seconds from the stop of the job until it ran again")
    public double downtimeSeconds;

    public boolean succeeded;

    @JsonPropertyDescription(
            "Seconds of input the rescale cost: in place on Flink, from the trigger of the"
                    + " checkpoint the job restarted from until it ran again (its sources re-read"
                    + " that input); absent where it is not known, or the rescale resumed where the"
                    + " job stopped (a savepoint) and cost only its downtime")
    public Double inputCostSeconds;

    @JsonPropertyDescription(
            "true while the operator still looks for the checkpoint an in-place Flink rescale"
                    + " restarted from (Flink's statistics show it a few seconds late)")
    public Boolean inputCostPending;

    public Map<String, Integer> from = new LinkedHashMap<>();
    public Map<String, Integer> to = new LinkedHashMap<>();

    @JsonPropertyDescription(
            "metadata.generation of the spec it applied; a failed target is not retried until it changes")
    public Long generation;

    public String message;

    @JsonPropertyDescription(
            "true from the write of this outcome until the operator has reported it (its Rescaled"
                    + " or RescaleFailed Event and metrics), so that an operator that failed or"
                    + " restarted in between reports it once")
    public Boolean reportPending;
}
