package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KubernetesSchemaTest {

    @Test
    void everyObjectOfEveryDocumentedCombinationAndTheCrdIsValid() {
        List<KubernetesSchemas.Entry> entries = new ArrayList<>();
        entries.add(new KubernetesSchemas.Entry(CrdFile.PATH.toString(), CrdFile.read()));
        for (ValuesCase values : ValuesCase.DOCUMENTED) {
            FlowscaleChart.template(values)
                    .objects()
                    .forEach(
                            o ->
                                    entries.add(
                                            new KubernetesSchemas.Entry(
                                                    "values '" + values + "'", o)));
        }

        KubernetesSchemas.Result result = KubernetesSchemas.validate(entries);

        assertThat(result.valid()).as(result.output()).isTrue();
        assertThat(result.output()).contains("validated " + entries.size() + " objects, 0 invalid");
        assertThat(entries)
                .extracting(e -> e.object().path("kind").asText())
                .contains(
                        "CustomResourceDefinition",
                        "Deployment",
                        "ClusterRole",
                        "Role",
                        "ServiceMonitor",
                        "PodMonitor",
                        "ConfigMap");
    }

    @Test
    void aDeploymentWithAWronglyTypedFieldIsRejectedByKindAndName() {
        ObjectNode deployment = operatorDeployment();
        ((ObjectNode) deployment.path("spec")).put("replicas", "two");

        KubernetesSchemas.Result result = validate("bad deployment", deployment);

        assertThat(result.valid()).isFalse();
        assertThat(result.output())
                .contains("Deployment/flowscale-operator", "replicas must be integer");
    }

    @Test
    void aDeploymentWithoutContainersIsRejected() {
        ObjectNode deployment = operatorDeployment();
        ((ObjectNode) deployment.at("/spec/template/spec")).remove("containers");

        KubernetesSchemas.Result result = validate("no containers", deployment);

        assertThat(result.valid()).isFalse();
        assertThat(result.output()).contains("Deployment/flowscale-operator", "containers");
    }

    @Test
    void aPodMonitorWithHonorLabelsAsTextIsRejected() {
        ObjectNode monitor =
                FlowscaleChart.template(ValuesCase.named("monitors")).one("PodMonitor").deepCopy();
        ((ObjectNode) monitor.at("/spec/podMetricsEndpoints/0")).put("honorLabels", "true");

        KubernetesSchemas.Result result = validate("bad monitor", monitor);

        assertThat(result.valid()).isFalse();
        assertThat(result.output())
                .contains("PodMonitor/flowscale-runners", "honorLabels must be boolean");
    }

    @Test
    void anObjectOfAKindWithoutASchemaIsRejected() {
        ObjectNode unknown =
                Rendered.YAML
                        .createObjectNode()
                        .put("apiVersion", "example.org/v1")
                        .put("kind", "Gadget");

        KubernetesSchemas.Result result = validate("unknown kind", unknown);

        assertThat(result.valid()).isFalse();
        assertThat(result.output()).contains("no schema for apiVersion example.org/v1 kind Gadget");
    }

    private static ObjectNode operatorDeployment() {
        return FlowscaleChart.template(ValuesCase.named("defaults")).one("Deployment").deepCopy();
    }

    static KubernetesSchemas.Result validate(String source, JsonNode object) {
        return KubernetesSchemas.validate(List.of(new KubernetesSchemas.Entry(source, object)));
    }
}
