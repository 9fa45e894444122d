package dev.flowscale.operator.core;

import dev.flowscale.operator.api.StreamJob;

/** Kubernetes Events on a StreamJob; {@link Fabric8JobEvents} is the real one. */
public interface JobEvents {

    /** Reasons this operator uses, as {@code kubectl describe sj} shows them. */
    String INVALID_SPEC = "InvalidSpec";

    String SAVEPOINT_CLAIM_MISSING = "SavepointClaimMissing";
    String DEPLOYED = "Deployed";
    String FLINK_DEPLOYMENT_MISSING = "FlinkDeploymentMissing";
    String FLINK_AUTOSCALER_ENABLED = "FlinkAutoscalerEnabled";
    String FLINK_OVERRIDES_WRITTEN = "FlinkOverridesWritten";
    String SAVEPOINT_UPGRADE = "SavepointUpgrade";
    String SCALING_REPORT = "ScalingReport";
    String RESCALED = "Rescaled";
    String RESCALE_FAILED = "RescaleFailed";
    String SPEC_ROLLED_BACK = "SpecRolledBack";
    String SCALING_BLOCKED = "ScalingBlocked";
    String STRANDED_RUNNER = "StrandedRunnerRestarted";
    String POD_RESIZE_REFUSED = "PodResizeRefused";
    String POD_DOWNSIZED = "PodDownsized";
    String STUCK_POD_DELETED = "StuckPodDeleted";
    String SAVEPOINT_FAILED = "SavepointFailed";
    String SAVEPOINT_NOT_FOUND = "SavepointNotFound";
    String JOB_FINISHED = "JobFinished";
    String JOB_FAILED = "JobFailed";
    String JOB_CANCELLED = "JobCancelled";

    void normal(StreamJob job, String reason, String message);

    void warning(StreamJob job, String reason, String message);

    /**
     * Creates the Event {@code name} (Normal, or Warning when {@code warning}) unless an Event of
     * that name exists already; returns whether this call created it. An Event named after what it
     * reports is created once however often its reporter retries, also across operator restarts.
     */
    boolean once(StreamJob job, String name, boolean warning, String reason, String message);
}
