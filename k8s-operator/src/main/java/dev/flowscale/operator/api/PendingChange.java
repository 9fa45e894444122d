package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A change of the runner the operator has begun and not yet observed through, recorded in status
 * before the runner is touched, so that an operator restarted in the middle carries it on: it knows
 * the savepoint to restore from (or that the stop's reply may have been lost), the parallelism to
 * roll back to, and when the deadline for readiness passes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PendingChange {
    /** The change is carried out inside the running runner process; no pod is replaced. */
    public static final String IN_PLACE = "in-place";

    /**
     * The running pod is resized through its resize subresource, then the runner rescales inside
     * it.
     */
    public static final String IN_PLACE_RESIZE = "in-place-resize";

    /** The runner stops with a savepoint and a new pod restores from it. */
    public static final String POD_REPLACEMENT = "pod-replacement";

    @JsonPropertyDescription(
            "What asked for the change: spec, autoscaler, suspend, upgrade, repair or resources (a"
                    + " pod replaced to give back slots a scale-down left unused)")
    public String reason;

    @JsonPropertyDescription("in-place, in-place-resize or pod-replacement")
    public String path;

    @JsonPropertyDescription("Parallelism before the change (the rollback target)")
    public Map<String, Integer> from = new LinkedHashMap<>();

    @JsonPropertyDescription("Parallelism the change applies")
    public Map<String, Integer> to = new LinkedHashMap<>();

    @JsonPropertyDescription(
            "Savepoint the runner stopped with; unset while the stop's reply is awaited")
    public String savepoint;

    @JsonPropertyDescription(
            "When the runner was asked to stop (RFC 3339): downtime and the deadline count from here")
    public String started;

    @JsonPropertyDescription(
            "true once the deadline passed and the runner is restored at the previous parallelism")
    public Boolean rollingBack;

    @JsonPropertyDescription(
            "Why the new pod cannot run (the scheduler's message) when it is rolled back for that")
    public String unschedulable;

    @JsonPropertyDescription(
            "Why the pod could not be resized in place (the change then replaced it)")
    public String resizeRefused;

    @JsonPropertyDescription(
            "The spec (JSON) the runner ran before the change (status.deployedSpec then): a"
                    + " rollback restores the whole runner template from it")
    public String previousSpec;

    @JsonPropertyDescription(
            "status.desiredRequest when the change started: the autoscaler request it carries out")
    public String request;

    @JsonPropertyDescription("metadata.generation of the spec the change applies")
    public Long generation;

    @JsonPropertyDescription("Stop-with-savepoint requests that failed so far")
    public Integer stopAttempts;

    @JsonPropertyDescription("Why the last stop-with-savepoint failed, as the runner said it")
    public String stopError;

    @JsonPropertyDescription("When the stop-with-savepoint is tried again (RFC 3339)")
    public String nextStopAttempt;

    @JsonPropertyDescription(
            "Why the savepoint of the stop could not be read back within the rescale timeout (the"
                    + " runner unreachable, or stopped without naming one): the new runner then"
                    + " restores the newest complete snapshot in its storage")
    public String savepointNotFound;

    @JsonPropertyDescription(
            "The run (runId) of the runner that could not stop, replaced from its latest"
                    + " checkpoint: the change ends when another run runs")
    public String replacedRun;

    @JsonPropertyDescription(
            "Flink session targets: the Flink job id the change stops (the run before it)")
    public String flinkJob;

    @JsonPropertyDescription(
            "Flink session targets: the request-id of the stop-with-savepoint, recorded once Flink"
                    + " accepted the stop, to ask for the savepoint after an operator restart")
    public String savepointTrigger;

    @JsonPropertyDescription(
            "Flink session targets: the job id of the run started from the savepoint (or adopted:"
                    + " one of this job that started since the change began)")
    public String flinkRun;

    @JsonPropertyDescription(
            "When the rollback began (RFC 3339): runs started since are the rollback's own")
    public String rollbackStarted;

    @JsonPropertyDescription("Why the change is rolled back")
    public String rollbackReason;

    @JsonPropertyDescription(
            "In place on Flink: when the latest checkpoint completed before the change was"
                    + " triggered, or the job started where none had (RFC 3339); the job restarts"
                    + " from there or later, so the input the change costs is at most from there")
    public String checkpointTrigger;
}
