package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The mock API server's stand-in for a real one's structural-schema handling, on a small schema
 * shaped like the FlinkDeployment's: pruning as the API server prunes, and validation errors worded
 * as it words them.
 */
class StructuralSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StructuralSchema SCHEMA =
            new StructuralSchema(
                    json(
                            """
                            {"type": "object", "properties": {
                              "spec": {"type": "object", "required": ["image"], "properties": {
                                "image": {"type": "string"},
                                "flinkVersion": {"type": "string", "enum": ["v1_19", "v1_20"]},
                                "flinkConfiguration": {"type": "object",
                                  "additionalProperties": {"type": "string"}},
                                "port": {"x-kubernetes-int-or-string": true},
                                "args": {"type": "array", "items": {"type": "string"}},
                                "podTemplate": {"type": "object",
                                  "x-kubernetes-preserve-unknown-fields": true},
                                "note": {"type": "string", "nullable": true},
                                "replicas": {"type": "integer"}}}}}
                            """));

    @Test
    void fieldsTheSchemaDoesNotNameAreDroppedAndNamedOnesKept() {
        ObjectNode object =
                json(
                        """
                        {"apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
                         "metadata": {"name": "wc"}, "extra": 1,
                         "spec": {"image": "flink:1.20", "unknown": {"a": 1},
                          "flinkConfiguration": {"pipeline.jobvertex-parallelism-overrides": "v:2"},
                          "podTemplate": {"anything": {"goes": true}},
                          "args": ["a"], "replicas": null, "note": null}}
                        """);

        assertThat(SCHEMA.prune(object)).containsExactly("extra", "spec.unknown");

        assertThat(object.has("metadata")).as("the API server's own fields stay").isTrue();
        assertThat(object.path("spec").path("flinkConfiguration").size()).isEqualTo(1);
        assertThat(
                        object.path("spec")
                                .path("podTemplate")
                                .path("anything")
                                .path("goes")
                                .asBoolean())
                .as("x-kubernetes-preserve-unknown-fields keeps everything below")
                .isTrue();
        assertThat(object.path("spec").has("replicas"))
                .as("a null of a non-nullable field")
                .isFalse();
        assertThat(object.path("spec").has("note")).as("a null of a nullable field").isTrue();
    }

    @Test
    void typesEnumsAndRequiredFieldsAreCheckedAndNamedAsTheApiServerNamesThem() {
        ObjectNode object =
                json(
                        """
                        {"spec": {"flinkVersion": "v2_0", "port": "rest",
                          "flinkConfiguration": {"taskmanager.numberOfTaskSlots": 4},
                          "args": ["a", 1], "replicas": 1.5}}
                        """);

        assertThat(SCHEMA.violations(object))
                .containsExactlyInAnyOrder(
                        "spec.image: Required value",
                        "spec.flinkVersion: Unsupported value: \"v2_0\": supported values:"
                                + " \"v1_19\", \"v1_20\"",
                        "spec.flinkConfiguration.taskmanager.numberOfTaskSlots: Invalid value:"
                                + " \"integer\": spec.flinkConfiguration.taskmanager.numberOfTaskSlots"
                                + " in body must be of type string: \"integer\"",
                        "spec.args[1]: Invalid value: \"integer\": spec.args[1] in body must be of"
                                + " type string: \"integer\"",
                        "spec.replicas: Invalid value: \"number\": spec.replicas in body must be of"
                                + " type integer: \"number\"");
        assertThat(SCHEMA.violations(json("{\"spec\": {\"image\": \"flink\", \"port\": 8081}}")))
                .as("int-or-string takes either")
                .isEmpty();
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
