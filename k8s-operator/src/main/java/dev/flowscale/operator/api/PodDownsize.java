package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * How the runner pod gave back the slots a scale-down left unused: resized down in place, replaced
 * by a pod sized for the new parallelism, or kept as it is because a replacement would cost more
 * than it saves over the savings horizon.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodDownsize {
    /** The pod was resized down through its resize subresource; it keeps running. */
    public static final String IN_PLACE_RESIZE = PendingChange.IN_PLACE_RESIZE;

    /** The runner stopped with a savepoint and a pod sized for its parallelism restored it. */
    public static final String POD_REPLACEMENT = PendingChange.POD_REPLACEMENT;

    /** The pod keeps its slots: replacing it would cost more than it saves. */
    public static final String KEPT = "kept";

    @JsonPropertyDescription("The runner pod this concerns")
    public String pod;

    @JsonPropertyDescription("Slots the pod had")
    public int fromSlots;

    @JsonPropertyDescription("Slots the parallelism needs (with spec.resources.headroom)")
    public int toSlots;

    @JsonPropertyDescription("in-place-resize, pod-replacement or kept; unset while it is decided")
    public String path;

    @JsonPropertyDescription("When the in-place resize was asked for (RFC 3339)")
    public String asked;

    @JsonPropertyDescription("Why the pod could not be resized down in place")
    public String refused;

    @JsonPropertyDescription("What was done and why, as in the PodDownsized Event")
    public String message;
}
