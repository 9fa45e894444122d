package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the operator observed and did; written only by the operator through the status subresource.
 */
public class StreamJobStatus {
    /** Decisions kept in {@link #history}; older ones are dropped. */
    public static final int HISTORY_LIMIT = 10;

    @JsonPropertyDescription("metadata.generation of the spec this status reflects")
    public Long observedGeneration;

    public JobPhase phase;

    @JsonPropertyDescription("Current parallelism per operator id")
    public Map<String, Integer> parallelism = new LinkedHashMap<>();

    @JsonPropertyDescription(
            "Current parallelism as one line, e.g. split=2,count=4 (the printer column)")
    public String parallelismSummary;

    public DecisionRecord lastDecision;

    @JsonPropertyDescription("The latest decisions, newest last, at most 10")
    public List<DecisionRecord> history = new ArrayList<>();

    @JsonPropertyDescription(
            "Parallelism the autoscaler (mode auto) asks for; the reconciler applies it")
    public Map<String, Integer> desiredParallelism = new LinkedHashMap<>();

    @JsonPropertyDescription(
            "When the autoscaler last recorded desiredParallelism (RFC 3339): the request's id")
    public String desiredRequest;

    @JsonPropertyDescription(
            "The latest desiredRequest the reconciler has settled: rescaled to it (lastRescale),"
                    + " found it running already, or declined it")
    public String settledRequest;

    @JsonPropertyDescription(
            "When the operator last applied a changed runner Deployment (RFC 3339): the deploy"
                    + " timeout counts from here or from Ready turning False, whichever is later")
    public String deployedAt;

    @JsonPropertyDescription("Parallelism the runner pod was started with and is sized for")
    public Map<String, Integer> deployedParallelism = new LinkedHashMap<>();

    @JsonPropertyDescription(
            "The runner's checkpoint failures (condition Checkpointing says whether the latest failed)")
    public CheckpointFailures checkpoints;

    @JsonPropertyDescription(
            "The runner pod resized in place, whose slots are resizedSlots (not its template's)")
    public String resizedPod;

    @JsonPropertyDescription("Slots the pod resizedPod was resized to")
    public Integer resizedSlots;

    @JsonPropertyDescription(
            "How the runner pod last gave back slots a scale-down left unused (in-place-resize,"
                    + " pod-replacement or kept)")
    public PodDownsize downsize;

    @JsonPropertyDescription("Savepoint the runner pod was started from (its --restore-from)")
    public String deployedSavepoint;

    @JsonPropertyDescription(
            "The spec (JSON) the runner Deployment was rendered from: a rollback renders it again")
    public String deployedSpec;

    @JsonPropertyDescription(
            "The last spec change rolled back because its runner did not run; that generation is"
                    + " not applied again until the spec changes")
    public SpecRollback rolledBack;

    @JsonPropertyDescription(
            "spec.parallelism as last applied, to tell a user's change from the autoscaler's")
    public Map<String, Integer> specParallelism = new LinkedHashMap<>();

    @JsonPropertyDescription("The change of the runner under way, if any")
    public PendingChange pending;

    @JsonPropertyDescription(
            "The last rescale: path (in-place or pod-replacement), downtime, result")
    public RescaleOutcome lastRescale;

    @JsonPropertyDescription(
            "A scale-up the scheduler could not place: its reason and when it is tried again")
    public BlockedRescale blockedScaleUp;

    @JsonPropertyDescription(
            "How the runner's job ended (FINISHED, FAILED or CANCELLED) for the spec of endedGeneration;"
                    + " null while it runs")
    public String endedAs;

    @JsonPropertyDescription(
            "metadata.generation of the spec whose run ended as endedAs; a newer spec runs the job again")
    public Long endedGeneration;

    @JsonPropertyDescription(
            "A change whose stop-with-savepoint failed for good, and what became of it; cleared"
                    + " by a change that succeeds")
    public SavepointFailure savepointFailure;

    @JsonPropertyDescription(
            "Flink session targets: the id of the Flink job flowscale scales now, after a rescale"
                    + " through a savepoint ran the jar again under a new id")
    public String flinkJob;

    @JsonPropertyDescription(
            "The spec.flink target (restUrl and job) flinkJob was found for; another target"
                    + " makes it stale")
    public String flinkJobOf;

    @JsonPropertyDescription("Path of the last savepoint taken, to restore from")
    public String lastSavepoint;

    @JsonPropertyDescription("Ready, Scaling and Degraded, with reasons and messages")
    public List<Condition> conditions = new ArrayList<>();

    /** Records a decision as the last one and in the bounded history. */
    public void record(DecisionRecord decision) {
        lastDecision = decision;
        history.add(decision);
        while (history.size() > HISTORY_LIMIT) {
            history.remove(0);
        }
    }
}
