package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/**
 * Savepoint storage: a PersistentVolumeClaim the operator mounts at {@link #path}, or, without a
 * claim, a path on a volume the image or the cluster already provides.
 */
public class SavepointStorage {
    @JsonPropertyDescription("PersistentVolumeClaim in the job's namespace mounted at path; it must exist")
    public String claimName;

    @Default("/flowscale/savepoints")
    @Pattern("^/.*")
    @JsonPropertyDescription("Absolute path of the savepoint directory in the runner container")
    public String path = "/flowscale/savepoints";
}
