package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class DashboardTemplateTest {
    private static final String KEY = "flowscale-scaling.json";

    @Test
    void theDashboardConfigMapCarriesTheSidecarLabelAndTheDashboardFile() throws Exception {
        JsonNode configMap = FlowscaleChart.template(ValuesCase.named("defaults")).one("ConfigMap");

        assertThat(configMap.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
        String json = configMap.at("/data").path(KEY).asText();
        assertThat(json)
                .isEqualTo(
                        Files.readString(FlowscaleChart.DIR.resolve("dashboards/" + KEY)).strip());
        JsonNode dashboard = new ObjectMapper().readTree(json);
        assertThat(dashboard.path("uid").asText()).isEqualTo("flowscale-scaling");
        assertThat(dashboard.path("title").asText()).isEqualTo("flowscale: scaling decisions");
    }

    @Test
    void theSidecarLabelAndNamespaceAreConfigurable() {
        JsonNode configMap =
                FlowscaleChart.template(
                                new ValuesCase(
                                        "dashboard label",
                                        """
                dashboard: {labelName: grafana_dashboards, labelValue: flowscale, namespace: monitoring}
                """))
                        .one("ConfigMap");

        assertThat(configMap.at("/metadata/labels/grafana_dashboards").asText())
                .isEqualTo("flowscale");
        assertThat(configMap.at("/metadata/labels/grafana_dashboard").isMissingNode()).isTrue();
        assertThat(configMap.at("/metadata/namespace").asText()).isEqualTo("monitoring");
    }

    @Test
    void noDashboardConfigMapWhenTheDashboardIsOff() {
        assertThat(FlowscaleChart.template(ValuesCase.named("dashboard off")).ofKind("ConfigMap"))
                .isEmpty();
    }
}
