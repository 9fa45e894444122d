package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.charts.DashboardJson.Query;
import dev.flowscale.runner.api.MetricName;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's own rules: identity, variables, descriptions, unique ids, every query scoped to
 * $job.
 */
class DashboardTest {
    private static final Pattern SERIES = Pattern.compile("\\bflowscale_\\w+");
    private final DashboardJson dashboard = DashboardJson.load();

    @Test
    void theDashboardHasItsUidTitleAndASchemaVersionOf39OrLater() {
        JsonNode root = dashboard.root();
        assertThat(root.path("uid").asText()).isEqualTo("flowscale-scaling");
        assertThat(root.path("title").asText()).isEqualTo("flowscale: scaling decisions");
        assertThat(root.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
    }

    @Test
    void thePrometheusDatasourceIsAVariableAndEveryPanelUsesIt() {
        assertThat(dashboard.variable("datasource").path("type").asText()).isEqualTo("datasource");
        assertThat(dashboard.variable("datasource").path("query").asText()).isEqualTo("prometheus");
        dashboard
                .panels()
                .forEach(
                        p ->
                                assertThat(p.path("datasource").path("uid").asText())
                                        .as("datasource of panel '%s'", p.path("title").asText())
                                        .isEqualTo("${datasource}"));
    }

    @Test
    void theJobVariableListsTheControllersJobsAndAllowsSeveralOrAll() {
        JsonNode job = dashboard.variable("job");
        assertThat(job.path("type").asText()).isEqualTo("query");
        assertThat(job.path("query").path("query").asText())
                .isEqualTo("label_values(flowscale_controller_parallelism, job)");
        assertThat(job.path("multi").asBoolean()).as("multi").isTrue();
        assertThat(job.path("includeAll").asBoolean()).as("includeAll").isTrue();
    }

    @Test
    void everyPanelHasADescription() {
        dashboard
                .panels()
                .forEach(
                        p ->
                                assertThat(p.path("description").asText().strip())
                                        .as("description of panel '%s'", p.path("title").asText())
                                        .hasSizeGreaterThan(40));
    }

    @Test
    void everyPanelHasAUniqueId() {
        List<Integer> ids = dashboard.panels().stream().map(p -> p.path("id").asInt(-1)).toList();
        assertThat(ids).doesNotContain(-1).doesNotHaveDuplicates();
    }

    @Test
    void everyPanelHasAtLeastOneTarget() {
        dashboard
                .panels()
                .forEach(
                        p ->
                                assertThat(p.path("targets").size())
                                        .as("targets of panel '%s'", p.path("title").asText())
                                        .isPositive());
    }

    @Test
    void everyQueryIsScopedToTheJobVariable() {
        assertThat(dashboard.allQueries())
                .isNotEmpty()
                .allSatisfy(q -> assertThat(q.expr()).as(q.where()).contains("job=~\"$job\""));
    }

    @Test
    void everyLegendNamesTheJobSoThatSeveralJobsCanBeToldApart() {
        assertThat(dashboard.targets())
                .allSatisfy(
                        q ->
                                assertThat(q.templateLabels())
                                        .as("legend of %s", q.where())
                                        .contains("job"));
    }

    @Test
    void everySeriesAQueryNamesIsAMetricOfTheVocabulary() {
        List<String> texts =
                new ArrayList<>(dashboard.allQueries().stream().map(Query::expr).toList());
        texts.add(dashboard.variable("job").path("query").path("query").asText());
        List<String> series =
                texts.stream()
                        .flatMap(t -> SERIES.matcher(t).results().map(m -> m.group()))
                        .toList();
        assertThat(series)
                .isNotEmpty()
                .allSatisfy(
                        name ->
                                assertThat(MetricName.ofSeries(name))
                                        .as(
                                                "%s is not a series of any MetricName (runner-api); add it there or fix the query",
                                                name)
                                        .isPresent());
    }

    @Test
    void everyRateUsesTheRateInterval() {
        assertThat(dashboard.allQueries())
                .allSatisfy(
                        q ->
                                assertThat(rangesOf(q))
                                        .as("range selectors of %s", q.where())
                                        .allMatch("[$__rate_interval]"::equals));
    }

    @Test
    void theAnnotationTakesItsTimeFromTheDecisionSeriesInMillisecondsWithChangeAndReasons() {
        JsonNode annotation = dashboard.root().path("annotations").path("list").get(1);
        assertThat(annotation.path("useValueForTime").asBoolean()).isTrue();
        assertThat(annotation.path("expr").asText())
                .startsWith("round(flowscale_controller_decision_timestamp_seconds{")
                .endsWith("* 1000)");
        assertThat(annotation.path("titleFormat").asText()).isEqualTo("{{change}}");
        assertThat(annotation.path("textFormat").asText()).isEqualTo("{{reasons}}");
    }

    private static List<String> rangesOf(Query q) {
        return java.util.regex.Pattern.compile("\\[[^\\]]*\\]")
                .matcher(q.expr())
                .results()
                .map(java.util.regex.MatchResult::group)
                .toList();
    }
}
