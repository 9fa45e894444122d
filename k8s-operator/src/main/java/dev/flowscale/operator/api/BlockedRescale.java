package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A scale-up whose new pod the scheduler could not place: the runner went back to the previous
 * parallelism from the same savepoint, and this parallelism is tried again only after {@link
 * #nextRetry} (the wait doubles with each failed attempt). Cleared when a rescale succeeds, when
 * the parallelism asked for changes (the load changed) or when the spec changes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BlockedRescale {
    @JsonPropertyDescription("The parallelism that could not be scheduled")
    public Map<String, Integer> to = new LinkedHashMap<>();

    @JsonPropertyDescription("The scheduler's reason, e.g. Unschedulable")
    public String reason;

    @JsonPropertyDescription(
            "The scheduler's message, e.g. 0/3 nodes are available: 3 Insufficient cpu.")
    public String message;

    @JsonPropertyDescription("How many attempts failed so far")
    public int attempts;

    @JsonPropertyDescription("When the last attempt was rolled back (RFC 3339)")
    public String lastAttempt;

    @JsonPropertyDescription("Not tried again before this time (RFC 3339)")
    public String nextRetry;

    @JsonPropertyDescription("metadata.generation of the spec the attempts were made for")
    public Long generation;
}
