package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The Apache Flink job a StreamJob scales instead of running one on the embedded engine: exactly
 * one of {@link #deployment} and {@link #restUrl}, and optionally which job there.
 */
@ValidationRule(
        value = "has(self.deployment) != has(self.restUrl)",
        message = "set exactly one of spec.flink.deployment and spec.flink.restUrl")
public class FlinkTarget {
    @JsonPropertyDescription(
            "Name of a FlinkDeployment (flink.apache.org/v1beta1) in the StreamJob's namespace,"
                    + " managed by the Apache Flink Kubernetes operator. flowscale reads metrics from its REST"
                    + " service <name>-rest:8081 and writes each decision as"
                    + " pipeline.jobvertex-parallelism-overrides into its spec.flinkConfiguration; that operator"
                    + " applies it. Its own autoscaler (job.autoscaler.enabled) must be off")
    public String deployment;

    @JsonPropertyDescription(
            "REST URL of a Flink session cluster's JobManager, e.g. http://session-rest.flink:8081;"
                    + " flowscale rescales the job itself through that API (in place: adaptive scheduler)")
    public String restUrl;

    @JsonPropertyDescription(
            "The Flink job: its 32-hex-digit id or its name; left out, the only running job")
    public String job;

    @JsonPropertyDescription(
            "The most task slots the Flink job may use (per slot-sharing group its highest"
                    + " parallelism, summed); decisions are capped to fit and say so. Left out: for"
                    + " restUrl, the slots the session cluster has now (it cannot add TaskManagers; set"
                    + " this for a native Kubernetes session cluster that adds them on demand); for a"
                    + " deployment, spec.taskManager.replicas x taskmanager.numberOfTaskSlots where"
                    + " replicas is set, else its slotmanager.number-of-slots.max, else no bound")
    @Min(1)
    public Integer taskSlots;

    @JsonPropertyDescription(
            "For restUrl only: the jar the job was started from, uploaded to the session cluster."
                    + " Given, a job that cannot be rescaled in place (Flink's default scheduler) is"
                    + " rescaled through a savepoint: stop-with-savepoint, then this jar run again from"
                    + " it with pipeline.jobvertex-parallelism-overrides (on Flink 2.0 to 2.3 the job's"
                    + " main must apply them itself, see docs/flink.md); name the job by its name in"
                    + " spec.flink.job, as each run gets a new job id")
    public FlinkJar jar;
}
