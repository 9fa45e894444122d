package dev.flowscale.operator.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.FlinkVertex;
import dev.flowscale.flink.SlotLimit;
import dev.flowscale.flink.SlotLimits;
import dev.flowscale.operator.FlinkDeploymentTargetIT;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where a FlinkDeployment's task slots come from: the Flink Kubernetes operator runs a fixed number
 * of TaskManagers where spec.taskManager.replicas is set, else makes them on demand (native mode)
 * up to Flink's slotmanager.number-of-slots.max where set; spec.flink.taskSlots overrides both.
 */
class FlinkSlotLimitsTest {
    private static final FlinkJob JOB =
            new FlinkJob(
                    "84b6ec23b06931c1acb4e1096e9903ac",
                    "wc",
                    "RUNNING",
                    Optional.of("Adaptive"),
                    List.of(
                            new FlinkVertex("a", "Source", 1, 128, "RUNNING"),
                            new FlinkVertex("b", "Count", 4, 128, "RUNNING")),
                    List.of());

    private static GenericKubernetesResource deployment(
            Map<String, Object> config, Integer replicas) {
        GenericKubernetesResource d = FlinkDeploymentTargetIT.deployment("wordcount", config);
        if (replicas != null) {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec =
                    (Map<String, Object>) d.getAdditionalProperties().get("spec");
            spec.put("taskManager", new LinkedHashMap<>(Map.of("replicas", replicas)));
        }
        return d;
    }

    private static SlotLimit limit(GenericKubernetesResource deployment) {
        return FlinkSlotLimits.configured(deployment).orElseThrow().of(JOB).orElseThrow();
    }

    @Test
    void aFixedNumberOfTaskManagersGivesTheirSlots() {
        SlotLimit limit = limit(deployment(Map.of(FlinkSlotLimits.SLOTS_PER_TASK_MANAGER, "4"), 3));

        assertThat(limit.slots()).isEqualTo(12);
        assertThat(limit.why())
                .isEqualTo(
                        "FlinkDeployment 'wordcount' runs spec.taskManager.replicas 3 x"
                                + " taskmanager.numberOfTaskSlots 4");
        assertThat(limit.groups()).containsOnlyKeys("Source", "Count");
    }

    @Test
    void taskManagersMadeOnDemandAreBoundByTheSlotManagersMaximumOrNothing() {
        assertThat(limit(deployment(Map.of(FlinkSlotLimits.MAX_SLOTS, "20"), null)).slots())
                .isEqualTo(20);
        assertThat(FlinkSlotLimits.configured(deployment(Map.of(), null))).isEmpty();
    }

    @Test
    void aSlotCountThatIsNotANumberNamesTheField() {
        GenericKubernetesResource bad = deployment(Map.of(FlinkSlotLimits.MAX_SLOTS, "many"), null);

        assertThatThrownBy(() -> FlinkSlotLimits.configured(bad))
                .isInstanceOf(FlinkConnectorException.class)
                .hasMessageContaining(
                        "spec.flinkConfiguration.slotmanager.number-of-slots.max to 'many'");
    }

    @Test
    void theStreamJobsTaskSlotsWinOverWhatTheClusterOrDeploymentSays() {
        StreamJob job = new StreamJob();
        job.setMetadata(new ObjectMetaBuilder().withName("wc").withNamespace("flink").build());
        job.setSpec(new StreamJobSpec());
        job.getSpec().flink = new FlinkTarget();
        job.getSpec().flink.deployment = "wordcount";
        job.getSpec().flink.taskSlots = 6;
        FlinkRestClient unused =
                new FlinkRestClient(URI.create("http://127.0.0.1:1"), Duration.ofSeconds(1));

        SlotLimits limits = FlinkSlotLimits.of(job, new FlinkDeployments(null), unused);

        assertThat(limits.of(JOB).orElseThrow())
                .satisfies(l -> assertThat(l.slots()).isEqualTo(6))
                .satisfies(
                        l ->
                                assertThat(l.why())
                                        .isEqualTo(
                                                "spec.flink.taskSlots of StreamJob flink/wc is 6"));
    }
}
