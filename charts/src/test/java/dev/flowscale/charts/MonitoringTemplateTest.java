package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class MonitoringTemplateTest {

    @Test
    void noMonitorsAreRenderedByDefault() {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("defaults"));

        assertThat(rendered.ofKind("ServiceMonitor")).isEmpty();
        assertThat(rendered.ofKind("PodMonitor")).isEmpty();
    }

    @Test
    void theServiceMonitorScrapesTheOperatorServiceKeepingTheMetricsOwnJobLabel() {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("monitors"));

        JsonNode monitor = rendered.one("ServiceMonitor");
        assertThat(monitor.at("/apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.at("/spec/selector/matchLabels"))
                .isEqualTo(rendered.one("Service").at("/spec/selector"));
        assertThat(monitor.at("/spec/namespaceSelector/matchNames/0").asText())
                .isEqualTo(FlowscaleChart.NAMESPACE);
        JsonNode endpoint = monitor.at("/spec/endpoints/0");
        assertThat(endpoint.path("port").asText()).isEqualTo("http");
        assertThat(endpoint.path("interval").asText()).isEqualTo("20s");
        assertThat(endpoint.path("honorLabels").isBoolean()).isTrue();
        assertThat(endpoint.path("honorLabels").asBoolean()).isTrue();
    }

    @Test
    void thePodMonitorScrapesRunnerPodsInEveryNamespaceWhenAllAreWatched() {
        JsonNode monitor = FlowscaleChart.template(ValuesCase.named("monitors")).one("PodMonitor");

        assertThat(monitor.at("/spec/selector/matchLabels/app.kubernetes.io~1name").asText())
                .isEqualTo("flowscale-runner");
        assertThat(monitor.at("/spec/namespaceSelector/any").asBoolean()).isTrue();
        JsonNode endpoint = monitor.at("/spec/podMetricsEndpoints/0");
        assertThat(endpoint.path("port").asText()).isEqualTo("http");
        assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
        assertThat(endpoint.path("interval").asText()).isEqualTo("10s");
        assertThat(endpoint.path("honorLabels").asBoolean()).isTrue();
    }

    @Test
    void thePodMonitorScrapesOnlyTheWatchedNamespacesWhenSomeAreListed() {
        JsonNode monitor =
                FlowscaleChart.template(ValuesCase.named("namespaced monitors")).one("PodMonitor");

        assertThat(monitor.at("/spec/namespaceSelector/any").isMissingNode()).isTrue();
        assertThat(monitor.at("/spec/namespaceSelector/matchNames").toString())
                .isEqualTo("[\"team-a\",\"team-b\"]");
    }

    @Test
    void monitorLabelsLetPrometheusSelectThem() {
        Rendered rendered =
                FlowscaleChart.template(
                        new ValuesCase(
                                "monitor labels",
                                """
                serviceMonitor: {enabled: true, labels: {release: prometheus}}
                podMonitor: {enabled: true, labels: {release: prometheus}}
                """));

        assertThat(rendered.one("ServiceMonitor").at("/metadata/labels/release").asText())
                .isEqualTo("prometheus");
        assertThat(rendered.one("PodMonitor").at("/metadata/labels/release").asText())
                .isEqualTo("prometheus");
    }
}
