package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The chart grants exactly what the hand-written kubectl manifest grants, no more, no less. */
class RbacEquivalenceTest {
    static final Path MANIFEST = Path.of("..", "k8s-operator", "deploy", "operator.yaml");
    static final List<ValuesCase> CASES = ValuesCase.DOCUMENTED;
    static final String OPERATOR = "flowscale-operator";

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void theChartsOperatorRulesEqualTheHandWrittenManifests(ValuesCase values) {
        Rendered manifest = manifest();
        Rendered chart = FlowscaleChart.template(values);

        JsonNode expected = manifest.one("ClusterRole", OPERATOR);
        assertThat(OperatorRules.grants(chart))
                .allSatisfy(
                        role ->
                                assertThat(OperatorRules.of(role))
                                        .as(
                                                "%s %s/%s",
                                                role.path("kind").asText(),
                                                role.at("/metadata/namespace").asText(),
                                                role.at("/metadata/name").asText())
                                        .isEqualTo(OperatorRules.of(expected)));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void theLeaderElectionRulesEqualTheHandWrittenManifests(ValuesCase values) {
        JsonNode expected = manifest().one("Role", "flowscale-operator-leader");
        JsonNode rendered =
                FlowscaleChart.template(values).one("Role", "flowscale-operator-leader");

        assertThat(OperatorRules.of(rendered)).isEqualTo(OperatorRules.of(expected));
    }

    @Test
    void theManifestsClusterRoleGrantsThirtyVerbsOnResources() {
        assertThat(OperatorRules.of(manifest().one("ClusterRole", OPERATOR)))
                .hasSize(30)
                .contains(
                        "flowscale.dev streamjobs watch",
                        "flowscale.dev streamjobs/finalizers update",
                        "apps deployments get",
                        " services get",
                        " configmaps get",
                        " events create",
                        " pods delete",
                        " pods/resize patch",
                        "flink.apache.org flinkdeployments update");
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void theCrdReadersRuleEqualsTheHandWrittenManifests(ValuesCase values) {
        JsonNode expected = manifest().one("ClusterRole", OPERATOR + "-crd");
        JsonNode rendered = FlowscaleChart.template(values).one("ClusterRole", OPERATOR + "-crd");

        assertThat(rendered.path("rules")).isEqualTo(expected.path("rules"));
        assertThat(rendered.at("/rules/0/resourceNames/0").asText())
                .isEqualTo("streamjobs.flowscale.dev");
    }

    @Test
    void rulesWithOneMoreVerbAreNotEquivalent() throws IOException {
        JsonNode role = manifest().one("ClusterRole", OPERATOR);
        JsonNode widened =
                Rendered.YAML.readTree(
                        role.toString()
                                .replace("\"verbs\":[\"get\"]", "\"verbs\":[\"get\",\"list\"]"));

        assertThat(OperatorRules.of(widened)).isNotEqualTo(OperatorRules.of(role));
    }

    private static Rendered manifest() {
        try {
            return Rendered.parse(Files.readString(MANIFEST));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kubectl manifest " + MANIFEST, e);
        }
    }
}
