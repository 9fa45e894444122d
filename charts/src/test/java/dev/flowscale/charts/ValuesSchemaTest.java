package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

class ValuesSchemaTest {
    static final List<ValuesCase> CASES = ValuesCase.DOCUMENTED;

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void everyDocumentedCombinationPassesTheSchema(ValuesCase values) {
        assertThatCode(() -> FlowscaleChart.template(values)).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            logLevel: LOUD                                    | at '/logLevel'
            replicas: 0                                       | at '/replicas'
            replicas: two                                     | at '/replicas'
            autoscalerDefaults: {mode: fast}                  | at '/autoscalerDefaults/mode'
            autoscalerDefaults: {policyInterval: 30}          | at '/autoscalerDefaults/policyInterval'
            autoscalerDefaults: {warmUp: 1 minute}            | at '/autoscalerDefaults/warmUp'
            autoscalerDefaults: {targetUtilization: 1.5}      | at '/autoscalerDefaults/targetUtilization'
            autoscalerDefaults: {minParallelism: 0}           | at '/autoscalerDefaults/minParallelism'
            autoscalerDefaults: {parallelism: 4}              | 'parallelism' not allowed
            watchNamespaces: team-a                           | at '/watchNamespaces'
            watchNamespaces: [Team_A]                         | at '/watchNamespaces/0'
            image: {pullPolicy: Sometimes}                    | at '/image/pullPolicy'
            serviceMonitor: {enabled: yes please}             | at '/serviceMonitor/enabled'
            podMonitor: {interval: soon}                      | at '/podMonitor/interval'
            dashboard: {label: grafana}                       | 'label' not allowed
            replica: 3                                        | 'replica' not allowed
            """)
    void badValuesAreRejectedWithAMessageNamingTheValue(String yaml, String where) {
        assertThatThrownBy(() -> FlowscaleChart.template(new ValuesCase("bad values", yaml + "\n")))
                .hasMessageContaining("don't meet the specifications of the schema")
                .hasMessageContaining(where);
    }

    /** Every field of the CRD's spec.autoscaler: the settings table's, one by one. */
    static java.util.stream.Stream<String> autoscalerFields() throws IOException {
        List<String> fields = new java.util.ArrayList<>();
        CrdFile.autoscalerSchema().at("/properties").fieldNames().forEachRemaining(fields::add);
        return fields.stream();
    }

    @org.junit.jupiter.api.Test
    void autoscalerDefaultsHaveExactlyTheCrdsFields() throws IOException {
        List<String> values = new java.util.ArrayList<>();
        valuesSchema()
                .at("/properties/autoscalerDefaults/properties")
                .fieldNames()
                .forEachRemaining(values::add);

        assertThat(values).containsExactlyInAnyOrderElementsOf(autoscalerFields().toList());
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("autoscalerFields")
    void autoscalerDefaultsAdmitWhatTheCrdAdmits(String field) throws IOException {
        JsonNode crd = CrdFile.autoscalerSchema().at("/properties/" + field);
        JsonNode values =
                resolve(valuesSchema().at("/properties/autoscalerDefaults/properties/" + field));

        for (String keyword : List.of("type", "enum", "pattern")) {
            assertThat(values.path(keyword))
                    .as("%s of autoscalerDefaults.%s", keyword, field)
                    .isEqualTo(crd.path(keyword));
        }
        for (String keyword : List.of("minimum", "maximum")) {
            assertThat(values.has(keyword))
                    .as("autoscalerDefaults.%s has a %s", field, keyword)
                    .isEqualTo(crd.has(keyword));
            assertThat(values.path(keyword).asDouble())
                    .as("%s of autoscalerDefaults.%s", keyword, field)
                    .isEqualTo(crd.path(keyword).asDouble());
        }
    }

    @Test
    void autoscalerDefaultsHaveExactlyTheFieldsOfTheCrdsSpecAutoscaler() throws IOException {
        Set<String> fields = new TreeSet<>();
        valuesSchema()
                .at("/properties/autoscalerDefaults/properties")
                .fieldNames()
                .forEachRemaining(fields::add);

        assertThat(fields).isEqualTo(CrdFile.autoscalerFields());
        assertThat(
                        valuesSchema()
                                .at("/properties/autoscalerDefaults/additionalProperties")
                                .asBoolean(true))
                .isFalse();
    }

    private static JsonNode valuesSchema() throws IOException {
        return new ObjectMapper()
                .readTree(FlowscaleChart.DIR.resolve("values.schema.json").toFile());
    }

    private static JsonNode resolve(JsonNode schema) throws IOException {
        String ref = schema.path("$ref").asText();
        return ref.isEmpty() ? schema : valuesSchema().at(ref.substring(1));
    }
}
