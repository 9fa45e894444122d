package dev.flowscale.runner.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * docs/metrics.md lists exactly the metrics of {@link MetricName}, in its order, with its kind and
 * exporter; the README's shorter table names only metrics of it, with their kinds.
 */
class MetricNamesDocTest {
    private static final Path DOC = Path.of("..", "docs", "metrics.md");
    private static final Path README = Path.of("..", "README.md");

    @Test
    void theDocsTableIsTheEnumRowForRow() throws IOException {
        List<String> documented = Files.readAllLines(DOC).stream().filter(l -> l.startsWith("| `flowscale_"))
                .map(l -> l.split("\\|")).map(cells -> cells[1].trim() + " " + cells[2].trim() + " " + cells[3].trim())
                .toList();
        List<String> declared = Arrays.stream(MetricName.values()).map(m -> "`" + m.prometheus() + "` "
                + m.kind().name().toLowerCase(Locale.ROOT) + " " + m.exporter().name().toLowerCase(Locale.ROOT))
                .toList();
        assertThat(documented).as("the metric rows of %s (fix the doc or MetricName)", DOC).isEqualTo(declared);
    }

    @Test
    void everyMetricTheReadmeListsIsInTheVocabularyWithItsKind() throws IOException {
        List<String[]> rows = Files.readAllLines(README).stream().filter(l -> l.startsWith("| `flowscale_"))
                .map(l -> l.split("\\|")).toList();
        assertThat(rows).isNotEmpty().allSatisfy(cells -> {
            String name = cells[1].trim().replace("`", "");
            assertThat(MetricName.named(name)).as("README metric %s", name).hasValueSatisfying(m ->
                    assertThat(m.kind() == MetricName.Kind.TIMER ? "histogram" : m.kind().name().toLowerCase(Locale.ROOT))
                            .as("kind of %s", name).isEqualTo(cells[2].trim()));
        });
    }
}
