package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/**
 * Snapshot storage (savepoints and periodic checkpoints): a PersistentVolumeClaim the operator
 * mounts at {@link #path}. Without a claim the snapshots live on the container's own disk and are
 * lost with the pod, so a job must then say it is {@link #ephemeral}.
 */
public class SavepointStorage {
    @JsonPropertyDescription(
            "PersistentVolumeClaim in the job's namespace mounted at path; it must exist."
                    + " Required unless ephemeral is true")
    public String claimName;

    @Default("false")
    @JsonPropertyDescription(
            "true runs without a claim: snapshots live on the container's disk and are lost with"
                    + " the pod (for demos only)")
    public boolean ephemeral;

    @Default("30s")
    @Pattern(AutoscalerSpec.DURATION)
    @JsonPropertyDescription(
            "Time between periodic checkpoints, so an unplanned restart resumes from a recent one;"
                    + " 0s: savepoints only")
    public String checkpointInterval = "30s";

    @Min(1)
    @Max(1000)
    @JsonPropertyDescription(
            "How many complete checkpoints, and how many savepoints, the runner keeps in the job's"
                    + " directory; older ones are deleted (default the operator's, 3: Helm runnerDefaults.retain)")
    public Integer retain;

    /** A change that cannot stop the runner with a savepoint is abandoned. */
    public static final String SAVEPOINT = "savepoint";

    /** A change that cannot stop the runner with a savepoint restores its latest checkpoint. */
    public static final String LAST_STATE = "last-state";

    @Default(SAVEPOINT)
    @Pattern("^(savepoint|last-state)$")
    @JsonPropertyDescription(
            "What a change that replaces the runner (spec edit, suspend, upgrade, rescale in a new"
                    + " pod) does when its stop-with-savepoint keeps failing (3 attempts, 10 s"
                    + " then 20 s apart): savepoint abandons the change and the job runs on"
                    + " unchanged; last-state replaces the runner anyway, and it resumes from its"
                    + " latest complete checkpoint (records since then are read again)")
    public String upgradeMode = SAVEPOINT;

    @Default("/flowscale/savepoints")
    @Pattern("^/.*")
    @JsonPropertyDescription("Absolute path of the savepoint directory in the runner container")
    public String path = "/flowscale/savepoints";
}
