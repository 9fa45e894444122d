package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.StreamJob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ExamplesTest {

    static List<Path> files() {
        return Examples.files();
    }

    @Test
    void theExamplesAreRecommendAutoAndAUserMainClass() throws Exception {
        Map<String, StreamJob> jobs = new TreeMap<>();
        for (Path file : files()) {
            for (JsonNode doc : Examples.read(file).ofKind("StreamJob")) {
                jobs.put(file.getFileName().toString(), Examples.streamJob(doc));
            }
        }

        assertThat(jobs)
                .containsOnlyKeys(
                        "kafka-wordcount.yaml",
                        "user-main-class.yaml",
                        "wordcount-auto.yaml",
                        "wordcount-recommend.yaml");
        assertThat(jobs.get("wordcount-recommend.yaml").getSpec().autoscaler.mode)
                .isEqualTo(AutoscalerMode.RECOMMEND);
        assertThat(jobs.get("wordcount-auto.yaml").getSpec().autoscaler.mode)
                .isEqualTo(AutoscalerMode.AUTO);
        assertThat(jobs.get("user-main-class.yaml").getSpec().job.mainClass).isNotBlank();
        assertThat(jobs.get("kafka-wordcount.yaml").getSpec().kafka.clientSecret.name)
                .isEqualTo("kafka-client");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void everyStreamJobParsesAndHasNoProblemsForTheOperator(Path file) throws Exception {
        List<JsonNode> docs = Examples.read(file).ofKind("StreamJob");

        assertThat(docs).as("StreamJobs in %s", file).hasSize(1);
        StreamJob job = Examples.streamJob(docs.get(0));
        assertThat(job.getApiVersion()).isEqualTo("flowscale.dev/v1alpha1");
        assertThat(job.getMetadata().getNamespace()).as("namespace left to kubectl -n").isNull();
        assertThat(Examples.problems(job.getSpec()))
                .as("SpecValidator problems of %s", file)
                .isEmpty();
    }

    @Test
    void theAutoExamplesClaimIsInTheSameFile() throws Exception {
        Rendered auto = Examples.read(Examples.DIR.resolve("wordcount-auto.yaml"));

        String claim = Examples.streamJob(auto.one("StreamJob")).getSpec().savepoints.claimName;
        assertThat(auto.one("PersistentVolumeClaim").at("/metadata/name").asText())
                .isEqualTo(claim);
    }

    @Test
    void everyObjectOfTheExamplesIsValidAgainstItsSchemaAndTheCrd() {
        List<KubernetesSchemas.Entry> entries = new ArrayList<>();
        for (Path file : files()) {
            Examples.read(file)
                    .objects()
                    .forEach(o -> entries.add(new KubernetesSchemas.Entry(file.toString(), o)));
        }

        KubernetesSchemas.Result result = KubernetesSchemas.validate(entries);

        assertThat(result.valid()).as(result.output()).isTrue();
        assertThat(
                        entries.stream()
                                .map(e -> e.object().path("kind").asText())
                                .collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("StreamJob", "PersistentVolumeClaim");
    }

    @Test
    void aStreamJobWithAnUnknownOrBadFieldFailsTheCrdCheck() {
        ObjectNode job = recommendExample();
        ((ObjectNode) job.at("/spec/autoscaler")).put("modee", "auto").put("warmUp", "1 minute");

        KubernetesSchemas.Result result = KubernetesSchemaTest.validate("bad job", job);

        assertThat(result.valid()).isFalse();
        assertThat(result.output())
                .contains("StreamJob/wordcount-recommend", "'modee'", "/spec/autoscaler/warmUp");
    }

    @Test
    void aStreamJobWithAnUnknownFieldDoesNotParseStrictly() {
        ObjectNode job = recommendExample();
        ((ObjectNode) job.path("spec")).put("paralelism", 3);

        assertThatThrownBy(() -> Examples.streamJob(job)).hasMessageContaining("paralelism");
    }

    @Test
    void theOperatorsCheckFindsAJobWithBothABuiltinAndAMainClass() throws Exception {
        ObjectNode job = recommendExample();
        ((ObjectNode) job.at("/spec/job")).put("mainClass", "com.example.Job");

        assertThat(Examples.problems(Examples.streamJob(job).getSpec()))
                .anyMatch(p -> p.contains("exactly one of builtin"));
    }

    private static ObjectNode recommendExample() {
        return Examples.read(Examples.DIR.resolve("wordcount-recommend.yaml"))
                .one("StreamJob")
                .deepCopy();
    }
}
