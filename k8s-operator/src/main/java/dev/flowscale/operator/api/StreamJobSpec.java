package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the user asks for: the job, its initial parallelism, resources, savepoints, autoscaling; or,
 * instead of a job on the embedded engine, an Apache Flink job to scale ({@link #flink}).
 */
@ValidationRule(
        value = "has(self.flink) || (has(self.image) && has(self.job) && has(self.savepoints))",
        message =
                "set spec.image, spec.job and spec.savepoints (a job on the embedded engine), or"
                        + " spec.flink (an Apache Flink job)")
public class StreamJobSpec {
    @JsonPropertyDescription(
            "Container image of the job runner (the flowscale engine and the job's classes);"
                    + " required unless spec.flink is set")
    public String image;

    @JsonPropertyDescription(
            "The job to run in the image: a built-in job or a user main class; required unless"
                    + " spec.flink is set")
    public JobSpec job;

    @JsonPropertyDescription(
            "Initial parallelism per operator id; operators not named keep the job's default")
    public Map<String, Integer> parallelism = new LinkedHashMap<>();

    @JsonPropertyDescription(
            "Resources of one task slot; requests are these times the total parallelism")
    public SlotResources resources = new SlotResources();

    @JsonPropertyDescription(
            "Where savepoints are written and restored from; required unless spec.flink is set")
    public SavepointStorage savepoints;

    @JsonPropertyDescription(
            "Kafka settings (brokers, topics, group id, client settings from a Secret) passed to"
                    + " the runner; required by the built-in job kafka-wordcount")
    public KafkaSpec kafka;

    @JsonPropertyDescription(
            "Scale an Apache Flink job instead of running the job on the embedded engine: a"
                    + " FlinkDeployment of the Flink Kubernetes operator, or a Flink session cluster's REST"
                    + " URL. image, job, savepoints, parallelism, resources and podTemplate are then unused")
    public FlinkTarget flink;

    @JsonPropertyDescription("DS2 autoscaler settings; changing them never restarts the job")
    public AutoscalerSpec autoscaler = new AutoscalerSpec();

    @Default("false")
    @JsonPropertyDescription("true stops the runner (scales it to zero); false runs it")
    public boolean suspend;

    @JsonPropertyDescription(
            "Pod template merged into the runner's generated pod: image pull secrets, node selector,"
                    + " tolerations, affinity, service account, env/envFrom, extra volumes and mounts (in a container named"
                    + " runner), labels and annotations. The operator's own fields (image, args, ports, resources, its volumes)"
                    + " win; security contexts default to Pod Security restricted")
    public PodTemplateSpec podTemplate;

    @JsonPropertyDescription(
            "Deploy and rescale timeouts; fields left out take the operator's defaults")
    public TimeoutSpec timeouts = new TimeoutSpec();

    @JsonPropertyDescription(
            "How rescales that need a bigger pod are made and retried; fields left out take the"
                    + " operator's defaults")
    public RescalingSpec rescaling = new RescalingSpec();
}
