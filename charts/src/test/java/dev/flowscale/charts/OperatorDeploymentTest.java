package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

class OperatorDeploymentTest {
    static final List<ValuesCase> CASES = ValuesCase.DOCUMENTED;

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void everyCombinationRendersOneOperatorDeploymentServiceAndServiceAccount(ValuesCase values) {
        Rendered rendered = FlowscaleChart.template(values);

        JsonNode deployment = rendered.one("Deployment");
        assertThat(deployment.at("/metadata/namespace").asText())
                .isEqualTo(FlowscaleChart.NAMESPACE);
        assertThat(deployment.at("/spec/template/spec/serviceAccountName").asText())
                .isEqualTo(rendered.one("ServiceAccount").at("/metadata/name").asText());
        assertThat(rendered.one("Service").at("/spec/selector"))
                .isEqualTo(deployment.at("/spec/selector/matchLabels"));
    }

    @Test
    void defaultsRunTwoReplicasAtLogLevelInfoOnPort8080WatchingEveryNamespace() {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("defaults"));

        assertThat(rendered.one("Deployment").at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(rendered.env("FLOWSCALE_LOG_LEVEL")).isEqualTo("INFO");
        assertThat(rendered.env("FLOWSCALE_OPERATOR_PORT")).isEqualTo("8080");
        assertThat(rendered.env("FLOWSCALE_WATCH_NAMESPACES")).isEmpty();
        assertThat(rendered.env("FLOWSCALE_AUTOSCALER_DEFAULTS")).isEqualTo("{}");
    }

    @Test
    void leaderElectionNamespaceComesFromThePodsOwnNamespace() {
        JsonNode env =
                FlowscaleChart.template(ValuesCase.named("defaults"))
                        .one("Deployment")
                        .at("/spec/template/spec/containers/0/env/0");

        assertThat(env.path("name").asText()).isEqualTo("FLOWSCALE_LEADER_ELECTION_NAMESPACE");
        assertThat(env.at("/valueFrom/fieldRef/fieldPath").asText())
                .isEqualTo("metadata.namespace");
    }

    @Test
    void replicasAndLogLevelFollowTheirValues() {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("one replica"));

        assertThat(rendered.one("Deployment").at("/spec/replicas").asInt()).isEqualTo(1);
        assertThat(rendered.env("FLOWSCALE_LOG_LEVEL")).isEqualTo("FINE");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"TRACE, FINEST", "DEBUG, FINE", "INFO, INFO", "WARN, WARNING", "ERROR, SEVERE"})
    void everyLogLevelBecomesALevelNameTheOperatorParses(String logLevel, String julName) {
        String rendered =
                FlowscaleChart.template(new ValuesCase("log level", "logLevel: " + logLevel + "\n"))
                        .env("FLOWSCALE_LOG_LEVEL");

        assertThat(rendered).isEqualTo(julName);
        assertThatCode(() -> Level.parse(rendered))
                .as("JsonLogFormatter.install parses it with Level.parse")
                .doesNotThrowAnyException();
    }

    @Test
    void watchedNamespacesAreJoinedWithCommas() {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("namespaced watch"));

        assertThat(rendered.env("FLOWSCALE_WATCH_NAMESPACES")).isEqualTo("team-a,team-b");
    }

    @Test
    void autoscalerDefaultsAreJsonWithTheCrdFieldNames() throws Exception {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("autoscaler defaults"));

        Map<String, Object> defaults =
                new ObjectMapper()
                        .readValue(
                                rendered.env("FLOWSCALE_AUTOSCALER_DEFAULTS"),
                                new TypeReference<>() {});
        assertThat(defaults)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "mode",
                                "auto",
                                "policyInterval",
                                "1m",
                                "warmUp",
                                "90s",
                                "targetUtilization",
                                0.8,
                                "minParallelism",
                                2,
                                "maxParallelism",
                                64,
                                "scaleDownDelay",
                                "10m",
                                "keyGroupAlignment",
                                true));
        assertThat(defaults.keySet()).allMatch(CrdFile.autoscalerFields()::contains);
    }

    @Test
    void probesAskHealthAndReadyzOnThePortNamedHttp() {
        JsonNode container = operatorContainer(ValuesCase.named("defaults"));

        assertThat(container.at("/ports/0/name").asText()).isEqualTo("http");
        assertThat(container.at("/ports/0/containerPort").asInt()).isEqualTo(8080);
        assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health");
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
        assertThat(container.at("/livenessProbe/httpGet/port").asText()).isEqualTo("http");
        assertThat(container.at("/readinessProbe/httpGet/port").asText()).isEqualTo("http");
    }

    @Test
    void operatorContainerRunsAsNonRootOnAReadOnlyFileSystemWithoutCapabilities() {
        JsonNode security = operatorContainer(ValuesCase.named("defaults")).path("securityContext");

        assertThat(security.path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(security.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(security.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
        assertThat(security.at("/capabilities/drop").toString()).isEqualTo("[\"ALL\"]");
        assertThat(security.at("/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
    }

    @Test
    void imageTagDefaultsToTheAppVersionAndPodSettingsComeFromValues() {
        JsonNode pod =
                FlowscaleChart.template(
                                new ValuesCase(
                                        "pod settings",
                                        """
                image: {repository: example.org/op, pullPolicy: Always}
                imagePullSecrets: [{name: regcred}]
                nodeSelector: {disk: ssd}
                tolerations: [{key: dedicated, operator: Exists}]
                resources: {requests: {cpu: 50m}}
                podAnnotations: {team: streaming}
                """))
                        .one("Deployment")
                        .at("/spec/template");

        assertThat(pod.at("/spec/containers/0/image").asText()).isEqualTo("example.org/op:0.1.0");
        assertThat(pod.at("/spec/containers/0/imagePullPolicy").asText()).isEqualTo("Always");
        assertThat(pod.at("/spec/imagePullSecrets/0/name").asText()).isEqualTo("regcred");
        assertThat(pod.at("/spec/nodeSelector/disk").asText()).isEqualTo("ssd");
        assertThat(pod.at("/spec/tolerations/0/key").asText()).isEqualTo("dedicated");
        assertThat(pod.at("/spec/containers/0/resources/requests/cpu").asText()).isEqualTo("50m");
        assertThat(pod.at("/metadata/annotations/team").asText()).isEqualTo("streaming");
    }

    @Test
    void anExistingServiceAccountIsUsedWhenTheChartCreatesNone() {
        Rendered rendered =
                FlowscaleChart.template(
                        new ValuesCase(
                                "existing account",
                                "serviceAccount: {create: false, name: ops-robot}\n"));

        assertThat(rendered.ofKind("ServiceAccount")).isEmpty();
        assertThat(rendered.one("Deployment").at("/spec/template/spec/serviceAccountName").asText())
                .isEqualTo("ops-robot");
        assertThat(rendered.ofKind("ClusterRoleBinding"))
                .hasSize(2)
                .allSatisfy(
                        b -> assertThat(b.at("/subjects/0/name").asText()).isEqualTo("ops-robot"));
    }

    private static JsonNode operatorContainer(ValuesCase values) {
        return FlowscaleChart.template(values)
                .one("Deployment")
                .at("/spec/template/spec/containers/0");
    }
}
