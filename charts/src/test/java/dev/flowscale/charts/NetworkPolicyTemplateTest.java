package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class NetworkPolicyTemplateTest {

    @Test
    void noPolicyIsRenderedWhenTheChartCannotKnowWhereRunnersLive() {
        assertThat(FlowscaleChart.template(ValuesCase.named("defaults")).ofKind("NetworkPolicy"))
                .isEmpty();
    }

    @Test
    void eachRunnerNamespaceGetsOnePolicy() {
        List<JsonNode> policies =
                FlowscaleChart.template(ValuesCase.named("runner network policy"))
                        .ofKind("NetworkPolicy");

        assertThat(policies)
                .extracting(p -> p.at("/metadata/namespace").asText())
                .containsExactly("team-a", "team-c");
    }

    @Test
    void theRunnersApiPortAdmitsTheOperatorPodsTheNamespaceAndTheConfiguredScrapersOnly() {
        JsonNode policy =
                FlowscaleChart.template(ValuesCase.named("runner network policy"))
                        .ofKind("NetworkPolicy")
                        .get(0);
        JsonNode operator = FlowscaleChart.template(ValuesCase.named("defaults")).one("Deployment");

        assertThat(policy.at("/spec/podSelector/matchLabels/app.kubernetes.io~1name").asText())
                .isEqualTo("flowscale-runner");
        assertThat(policy.at("/spec/policyTypes").toString()).isEqualTo("[\"Ingress\"]");
        JsonNode rule = policy.at("/spec/ingress/0");
        assertThat(rule.at("/ports/0/port").asInt()).isEqualTo(9249);
        JsonNode fromOperator = rule.at("/from/0");
        assertThat(
                        fromOperator
                                .at("/namespaceSelector/matchLabels/kubernetes.io~1metadata.name")
                                .asText())
                .isEqualTo(FlowscaleChart.NAMESPACE);
        assertThat(fromOperator.at("/podSelector/matchLabels"))
                .isEqualTo(operator.at("/spec/selector/matchLabels"));
        assertThat(rule.at("/from/1/podSelector").isEmpty()).isTrue();
        assertThat(
                        rule.at(
                                        "/from/2/namespaceSelector/matchLabels/kubernetes.io~1metadata.name")
                                .asText())
                .isEqualTo("monitoring");
        assertThat(rule.at("/from")).hasSize(3);
    }

    @Test
    void theOperatorGetsTheRunnerTimeoutDefaults() {
        JsonNode env =
                FlowscaleChart.template(ValuesCase.named("runner network policy"))
                        .one("Deployment")
                        .at("/spec/template/spec/containers/0/env");

        assertThat(env.toString())
                .contains("{\"name\":\"FLOWSCALE_DEPLOY_TIMEOUT\",\"value\":\"10m\"}")
                .contains("{\"name\":\"FLOWSCALE_RESCALE_TIMEOUT\",\"value\":\"90s\"}");
    }

    @Test
    void theOperatorGetsTheRunnerDefaultsFromTheValues() {
        JsonNode env =
                FlowscaleChart.template(ValuesCase.named("runner defaults"))
                        .one("Deployment")
                        .at("/spec/template/spec/containers/0/env");

        assertThat(env.toString())
                .contains("{\"name\":\"FLOWSCALE_RETAIN\",\"value\":\"5\"}")
                .contains("{\"name\":\"FLOWSCALE_IN_PLACE_POD_RESIZE\",\"value\":\"false\"}")
                .contains("{\"name\":\"FLOWSCALE_RETRY_BACKOFF\",\"value\":\"30s\"}")
                .contains("{\"name\":\"FLOWSCALE_MAX_RETRY_BACKOFF\",\"value\":\"10m\"}");
    }
}
