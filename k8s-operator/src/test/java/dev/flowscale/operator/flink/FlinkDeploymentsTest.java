package dev.flowscale.operator.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.FlinkDeploymentTargetIT;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a FlinkDeployment is read: its own autoscaler's switch in every form its operator accepts
 * (flat keys; before 1.8 under another name; nested YAML from 1.13 on, which the 1.10 CRD that
 * FlinkDeploymentTargetIT enforces refuses), and its REST service.
 */
class FlinkDeploymentsTest {

    @Test
    void theAutoscalerSwitchIsReadFlatNestedAndUnderItsPre18Name() {
        assertThat(FlinkDeployments.autoscalerEnabled(deployment(Map.of()))).isFalse();
        assertThat(
                        FlinkDeployments.autoscalerEnabled(
                                deployment(Map.of("job.autoscaler.enabled", "true"))))
                .isTrue();
        assertThat(
                        FlinkDeployments.autoscalerEnabled(
                                deployment(Map.of("job.autoscaler.enabled", "false"))))
                .isFalse();
        assertThat(
                        FlinkDeployments.autoscalerEnabled(
                                deployment(
                                        Map.of(
                                                "kubernetes.operator.job.autoscaler.enabled",
                                                "TRUE"))))
                .isTrue();
        assertThat(
                        FlinkDeployments.autoscalerEnabled(
                                deployment(
                                        Map.of(
                                                "job",
                                                Map.of("autoscaler", Map.of("enabled", "true"))))))
                .isTrue();
    }

    @Test
    void theRestServiceIsTheDeploymentsNameDashRestAtItsRestPort() {
        assertThat(FlinkDeployments.restUrl(deployment(Map.of())))
                .isEqualTo(URI.create("http://wordcount-rest.flink:8081"));
        assertThat(FlinkDeployments.restUrl(deployment(Map.of("rest.port", " 9081"))))
                .isEqualTo(URI.create("http://wordcount-rest.flink:9081"));
    }

    private static GenericKubernetesResource deployment(Map<String, Object> configuration) {
        return FlinkDeploymentTargetIT.deployment("wordcount", configuration);
    }
}
