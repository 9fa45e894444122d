package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.operator.api.StreamJob;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The YAML the README shows a user is what a cluster and the operator accept: every block is whole
 * objects (apiVersion and kind, no fragments), valid against the Kubernetes schemas and the
 * StreamJob CRD (npm kubernetes-models, {@link KubernetesSchemas}), and every StreamJob parses
 * strictly and has no problems for the operator's own check.
 */
class ReadmeManifestsTest {
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    static List<JsonNode> readmeObjects() throws IOException {
        String readme = Files.readString(ChartsModule.dir().getParent().resolve("README.md"));
        List<JsonNode> objects = new ArrayList<>();
        Matcher block = YAML_BLOCK.matcher(readme);
        while (block.find()) {
            objects.addAll(Rendered.parse(block.group(1)).objects());
        }
        return objects;
    }

    @Test
    void everyYamlBlockOfTheReadmeIsWholeObjects() throws IOException {
        List<JsonNode> objects = readmeObjects();

        assertThat(objects)
                .isNotEmpty()
                .allSatisfy(
                        o ->
                                assertThat(o.has("apiVersion") && o.has("kind"))
                                        .as(
                                                "a README YAML block without apiVersion and kind:\n%s",
                                                o)
                                        .isTrue());
    }

    @Test
    void everyObjectOfTheReadmeIsValidAgainstItsSchemaAndTheCrd() throws IOException {
        List<KubernetesSchemas.Entry> entries =
                readmeObjects().stream()
                        .map(o -> new KubernetesSchemas.Entry("README.md", o))
                        .toList();

        KubernetesSchemas.Result result = KubernetesSchemas.validate(entries);

        assertThat(result.valid()).as(result.output()).isTrue();
    }

    @Test
    void everyStreamJobOfTheReadmeHasNoProblemsForTheOperator() throws IOException {
        List<JsonNode> jobs =
                readmeObjects().stream()
                        .filter(o -> o.path("kind").asText().equals("StreamJob"))
                        .toList();

        assertThat(jobs).isNotEmpty();
        for (JsonNode doc : jobs) {
            StreamJob job = Examples.streamJob(doc);
            assertThat(Examples.problems(job.getSpec()))
                    .as("SpecValidator problems of %s", doc)
                    .isEmpty();
        }
    }
}
