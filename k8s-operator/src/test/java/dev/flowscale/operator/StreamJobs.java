package dev.flowscale.operator;

import dev.flowscale.operator.api.JobSpec;
import dev.flowscale.operator.api.SavepointStorage;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;

/** StreamJobs for tests. */
final class StreamJobs {
    private StreamJobs() {
    }

    /** wordcount with split=2, count=3, savepoints on the claim "savepoints". */
    static StreamJob wordCount(String namespace, String name) {
        StreamJobSpec spec = new StreamJobSpec();
        spec.image = "registry.example/flowscale-runner:0.1.0";
        spec.job = new JobSpec();
        spec.job.builtin = "wordcount";
        spec.job.args = List.of("--rate", "1000");
        spec.parallelism.putAll(Map.of("split", 2, "count", 3));
        spec.resources.cpu = "500m";
        spec.resources.memory = "256Mi";
        spec.savepoints = new SavepointStorage();
        spec.savepoints.claimName = "savepoints";
        StreamJob job = new StreamJob();
        job.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        job.setSpec(spec);
        return job;
    }
}
