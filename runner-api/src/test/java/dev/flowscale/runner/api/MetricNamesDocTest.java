package dev.flowscale.runner.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/metrics.md lists exactly the metrics of {@link MetricName}, in its order, with its kind and
 * exporter; the shorter tables of the README and the other docs name only metrics of it, with their
 * kinds.
 */
class MetricNamesDocTest {
    private static final Path DOC = Path.of("..", "docs", "metrics.md");
    private static final Path README = Path.of("..", "README.md");

    @Test
    void theDocsTableIsTheEnumRowForRow() throws IOException {
        List<String> documented =
                Files.readAllLines(DOC).stream()
                        .filter(l -> l.startsWith("| `flowscale_"))
                        .map(l -> l.split("\\|"))
                        .map(
                                cells ->
                                        cells[1].trim()
                                                + " "
                                                + cells[2].trim()
                                                + " "
                                                + cells[3].trim())
                        .toList();
        List<String> declared =
                Arrays.stream(MetricName.values())
                        .map(
                                m ->
                                        "`"
                                                + m.prometheus()
                                                + "` "
                                                + m.kind().name().toLowerCase(Locale.ROOT)
                                                + " "
                                                + m.exporter().name().toLowerCase(Locale.ROOT))
                        .toList();
        assertThat(documented)
                .as("the metric rows of %s (fix the doc or MetricName)", DOC)
                .isEqualTo(declared);
    }

    @Test
    void everyMetricTableOfTheReadmeAndTheOtherDocsNamesOnlyMetricsOfTheVocabularyWithTheirKinds()
            throws IOException {
        List<Path> pages = new ArrayList<>(List.of(README));
        try (Stream<Path> docs = Files.list(DOC.getParent())) {
            docs.filter(p -> p.toString().endsWith(".md") && !p.equals(DOC))
                    .sorted()
                    .forEach(pages::add);
        }
        for (Path page : pages) {
            for (String row :
                    Files.readAllLines(page).stream()
                            .filter(l -> l.startsWith("| `flowscale_"))
                            .toList()) {
                String[] cells = row.split("\\|");
                String name = cells[1].trim().replace("`", "");
                assertThat(MetricName.named(name))
                        .as("%s: metric %s", page, name)
                        .hasValueSatisfying(
                                m ->
                                        assertThat(kind(m))
                                                .as("%s: kind of %s", page, name)
                                                .isEqualTo(cells[2].trim()));
            }
        }
    }

    /** The kind as the docs' tables spell it: a timer is a histogram in Prometheus. */
    private static String kind(MetricName metric) {
        return metric.kind() == MetricName.Kind.TIMER
                ? "histogram"
                : metric.kind().name().toLowerCase(Locale.ROOT);
    }
}
