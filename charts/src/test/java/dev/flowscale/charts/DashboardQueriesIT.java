package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.charts.DashboardJson.Query;
import dev.flowscale.testsupport.Await;
import dev.flowscale.testsupport.EngineJar;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every query of the dashboard against a real Prometheus (Debian package {@code prometheus};
 * skipped with a message where the binary is missing, CI installs it) that scraped, every second
 * with honor_labels, a job runner and the controller's endpoint while the DS2 loop in mode auto
 * rescaled the job through savepoints (the runner restarts on a new port each time; the test
 * rewrites Prometheus' file_sd targets), an event-time job in this JVM ({@link EventTimeRunner})
 * for the event-time lag panel, and a job reading a real Kafka broker ({@link KafkaLagRunner}) for
 * the Kafka lag panel. The first two emit latency markers.
 */
@Tag(DashboardQueriesIT.INTEGRATION)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardQueriesIT {
    /**
     * The tag surefire leaves to failsafe, also when -Dtest selects the whole package
     * (charts/pom.xml).
     */
    static final String INTEGRATION = "integration";

    private static final Duration RATE_INTERVAL = Duration.ofSeconds(15);
    private static final Duration STEP = Duration.ofSeconds(2);

    /**
     * The run ends this long after a second rescale, or at the latest after LONGEST_RUN with fewer.
     */
    private static final Duration AFTER_LAST_RESCALE = Duration.ofSeconds(8);

    private static final Duration LONGEST_RUN = Duration.ofSeconds(80);
    private static final Pattern LABEL_VALUES =
            Pattern.compile("label_values\\((\\w+),\\s*(\\w+)\\)");

    @TempDir static Path dir;
    private final RunRecord record = new RunRecord();
    private final DashboardJson dashboard = DashboardJson.load();
    private PrometheusServer prometheus;
    private AutoscaledRunner loop;
    private EventTimeRunner eventTime;
    private KafkaLagRunner kafka;
    private Instant start;
    private Instant end;

    @BeforeAll
    void runTheAutoscalerWhilePrometheusScrapes() throws Exception {
        Optional<Path> binary = PrometheusServer.binary();
        assumeTrue(
                binary.isPresent(),
                "Prometheus is not on the PATH; apt-get install -y prometheus to run this test");
        ScrapeTargets targets = new ScrapeTargets(dir.resolve("targets.json"));
        targets.set(List.of());
        prometheus = PrometheusServer.start(binary.get(), dir, targets);
        eventTime = new EventTimeRunner();
        targets.addFixed(eventTime.endpoint());
        // The broker starts while the autoscaled run goes on, so it adds little to the run.
        CompletableFuture<KafkaLagRunner> kafkaStart =
                CompletableFuture.supplyAsync(this::startKafkaJob);
        start = Instant.now();
        loop = new AutoscaledRunner(engineJar(), dir, targets, record);
        kafka = kafkaStart.join();
        targets.addFixed(kafka.endpoint());
        Await.until(LONGEST_RUN.plusSeconds(5), "the run to end", this::runIsLongEnough);
        loop.stopDeciding();
        awaitPrometheusHasEveryDecision();
        end = Instant.now();
        System.out.printf(
                "DashboardQueriesIT: ran %d s, %d decisions, %d to scale, %d rescales%n",
                Duration.between(start, end).toSeconds(),
                record.decisions().size(),
                record.scaleDecisions().size(),
                record.rescales().size());
    }

    private KafkaLagRunner startKafkaJob() {
        try {
            return new KafkaLagRunner(dir.resolve("kafka"));
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the Kafka job: " + e.getMessage(), e);
        }
    }

    private boolean runIsLongEnough() {
        prometheus.assertAlive();
        List<RescaleReport> rescales = record.rescales();
        Instant now = Instant.now();
        if (Duration.between(start, now).compareTo(LONGEST_RUN) >= 0) {
            return true;
        }
        return rescales.size() >= 2
                && rescales.get(rescales.size() - 1)
                        .started()
                        .plus(AFTER_LAST_RESCALE)
                        .isBefore(now);
    }

    /**
     * Waits (bounded) until Prometheus scraped the controller after its last decision; the tests
     * say if it never did.
     */
    private void awaitPrometheusHasEveryDecision() throws InterruptedException {
        try {
            Await.until(
                    Duration.ofSeconds(10),
                    "Prometheus to scrape the last decision",
                    () -> annotations(Instant.now()).size() == record.scaleDecisions().size());
        } catch (AssertionError e) {
            System.err.println("DashboardQueriesIT: " + e.getMessage());
        }
    }

    @AfterAll
    void stopAll() throws Exception {
        if (loop != null) {
            loop.close();
        }
        if (eventTime != null) {
            eventTime.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    @Test
    void theAutoscalerRescaledTheBottleneckUpAtLeastOnceWithoutFailure() {
        assertThat(record.rescales())
                .as("rescales during the run")
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.succeeded()).as(r.summary()).isTrue());
        assertThat(record.rescales().get(0).to().values())
                .as("the first rescale scales up")
                .allSatisfy(p -> assertThat(p).isGreaterThan(1));
    }

    @Test
    void everyQueryOfTheDashboardReturnsASeriesWithValuesOverTheRun() throws Exception {
        List<String> withoutData = new ArrayList<>();
        List<Query> queries = dashboard.allQueries();
        for (Query q : queries) {
            String expr = PromQl.substitute(q.expr(), variables());
            List<PromSeries> drawable = drawable(prometheus.queryRange(expr, start, end, STEP));
            System.out.printf(
                    "DashboardQueriesIT: %s: %d series with values%n", q.where(), drawable.size());
            if (drawable.isEmpty()) {
                withoutData.add(q.where() + ": " + expr);
            }
        }
        System.out.printf("DashboardQueriesIT: checked %d queries%n", queries.size());
        assertThat(withoutData)
                .as(
                        "queries without a finite value over the %d s run",
                        Duration.between(start, end).toSeconds())
                .isEmpty();
    }

    @Test
    void everyLabelALegendOrAnnotationShowsIsOnTheSeriesItsQueryReturns() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Query q : dashboard.allQueries()) {
            for (PromSeries s :
                    drawable(
                            prometheus.queryRange(
                                    PromQl.substitute(q.expr(), variables()), start, end, STEP))) {
                q.templateLabels().stream()
                        .filter(label -> !s.labels().containsKey(label))
                        .forEach(
                                label ->
                                        missing.add(
                                                q.where()
                                                        + " shows {{"
                                                        + label
                                                        + "}}; its series has only "
                                                        + s.labels().keySet()));
            }
        }
        assertThat(missing).as("labels the legends and annotations render as empty text").isEmpty();
    }

    private static List<PromSeries> drawable(List<PromSeries> series) {
        return series.stream().filter(s -> !s.finiteValues().isEmpty()).toList();
    }

    @Test
    void theAnnotationQueryReturnsExactlyTheScalingDecisionsTheControllerTook() {
        List<Annotation> decided = record.scaleDecisions().stream().map(Annotation::of).toList();

        List<Annotation> shown = annotations(end);

        assertThat(decided).as("scaling decisions").isNotEmpty();
        assertThat(shown).containsExactlyInAnyOrderElementsOf(decided);
    }

    @Test
    void theAnnotationsAreTheRescalesThatHappened() {
        List<Map<String, String>> rescaled =
                record.rescales().stream().map(DashboardQueriesIT::changes).toList();

        List<Map<String, String>> annotated =
                annotations(end).stream().map(Annotation::changes).toList();

        assertThat(rescaled).as("rescales").isNotEmpty();
        assertThat(annotated).containsExactlyInAnyOrderElementsOf(rescaled);
    }

    /**
     * The Kafka lag panel shows one series for the topic, summed over the source's two instances,
     * with the lag a reader behind its input has: above zero, at most what the topic holds.
     */
    @Test
    void theKafkaLagPanelShowsTheTopicsLagSummedOverTheSourcesInstances() throws Exception {
        Query lag =
                dashboard.targets().stream()
                        .filter(q -> q.where().equals("panel 'Kafka lag by topic' target A"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no panel 'Kafka lag by topic'"));
        String expr = PromQl.substitute(lag.expr(), Map.of("job", KafkaLagRunner.JOB));

        List<PromSeries> series = drawable(prometheus.queryRange(expr, start, end, STEP));

        assertThat(series).as("series of %s", expr).hasSize(1);
        assertThat(series.get(0).labels())
                .containsEntry("topic", KafkaLagRunner.TOPIC)
                .containsEntry("job", KafkaLagRunner.JOB)
                .doesNotContainKey("instance");
        assertThat(series.get(0).finiteValues())
                .allSatisfy(
                        v ->
                                assertThat(v)
                                        .isPositive()
                                        .isLessThanOrEqualTo(KafkaLagRunner.RECORDS));
    }

    @Test
    void theJobVariableOffersTheJob() throws Exception {
        Matcher query =
                LABEL_VALUES.matcher(
                        dashboard.variable("job").path("query").path("query").asText());
        assertThat(query.matches())
                .as("the job variable's query is label_values(metric, label)")
                .isTrue();

        assertThat(prometheus.labelValues(query.group(2), query.group(1)))
                .contains(AutoscaledRunner.JOB);
    }

    /**
     * Every annotation the dashboard's annotation query finds up to {@code until}, timed as Grafana
     * does (floor).
     */
    private List<Annotation> annotations(Instant until) {
        Query annotation = dashboard.annotations().get(0);
        try {
            List<PromSeries> series =
                    prometheus.queryRange(
                            PromQl.substitute(annotation.expr(), variables()), start, until, STEP);
            return series.stream()
                    .flatMap(
                            s ->
                                    s.finiteValues().stream()
                                            .distinct()
                                            .map(
                                                    v ->
                                                            new Annotation(
                                                                    (long) Math.floor(v),
                                                                    s.labels().get("change"),
                                                                    s.labels().get("decided_at"))))
                    .toList();
        } catch (Exception e) {
            throw new AssertionError("annotation query failed: " + e.getMessage(), e);
        }
    }

    /**
     * Grafana's variables as a user sets them: the job variable with both jobs selected (as Grafana
     * renders a multi-value selection in a regex). On Kubernetes every job is a StreamJob and so
     * offered by the variable; here the event-time job is not autoscaled, so only "All" would offer
     * it.
     */
    private Map<String, String> variables() {
        long range = Duration.between(start, end == null ? Instant.now() : end).toSeconds() + 1;
        return Map.of(
                "job",
                "("
                        + AutoscaledRunner.JOB
                        + "|"
                        + EventTimeRunner.JOB
                        + "|"
                        + KafkaLagRunner.JOB
                        + ")",
                "__rate_interval",
                RATE_INTERVAL.toSeconds() + "s",
                "__interval",
                STEP.toSeconds() + "s",
                "__range",
                range + "s");
    }

    private static Map<String, String> changes(RescaleReport report) {
        Map<String, String> changes = new TreeMap<>();
        report.to().forEach((op, p) -> changes.put(op, report.from().get(op) + "→" + p));
        return changes;
    }

    private static Path engineJar() {
        return EngineJar.path();
    }
}
