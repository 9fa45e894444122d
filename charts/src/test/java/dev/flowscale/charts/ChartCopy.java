package dev.flowscale.charts;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A copy of the chart under target/lint whose values.yaml is the chart's merged with a case's
 * values, because the embedded {@code helm lint} takes no values files.
 */
final class ChartCopy {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private ChartCopy() {}

    static Path withValues(Path chart, ValuesCase values) {
        Path copy = Path.of("target", "lint", values.name().replace(' ', '-'), "flowscale");
        try {
            copyTree(chart, copy);
            Map<String, Object> merged =
                    merge(
                            read(Files.readString(chart.resolve("values.yaml"))),
                            read(values.yaml()));
            YAML.writeValue(copy.resolve("values.yaml").toFile(), merged);
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot copy the chart for values case '" + values + "'", e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static Map<String, Object> read(String yaml) throws IOException {
        Map<String, Object> map =
                yaml.isBlank() ? null : YAML.readValue(yaml, new TypeReference<>() {});
        return map == null ? new LinkedHashMap<>() : map;
    }

    /** Helm's merge: maps merge key by key, anything else (lists too) is replaced. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> overlay) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        overlay.forEach(
                (key, value) ->
                        merged.merge(
                                key,
                                value,
                                (a, b) ->
                                        a instanceof Map && b instanceof Map
                                                ? merge(
                                                        (Map<String, Object>) a,
                                                        (Map<String, Object>) b)
                                                : b));
        return merged;
    }
}
