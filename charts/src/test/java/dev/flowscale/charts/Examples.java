package dev.flowscale.charts;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The chart's example StreamJob files, and the operator's checks of a StreamJob. */
final class Examples {
    static final Path DIR = FlowscaleChart.DIR.resolve("examples");
    private static final ObjectMapper STRICT =
            new ObjectMapper(new YAMLFactory())
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** As the operator's client reads a resource: unknown fields outside the spec are ignored. */
    private static final ObjectMapper LENIENT =
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Examples() {}

    static List<Path> files() {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + DIR, e);
        }
    }

    static Rendered read(Path file) {
        try {
            return Rendered.parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The document as the operator reads it (its Jackson-annotated resource class), with its spec
     * also read strictly (no unknown fields).
     */
    static StreamJob streamJob(JsonNode document) throws IOException {
        STRICT.treeToValue(document.path("spec"), StreamJobSpec.class);
        return LENIENT.treeToValue(document, StreamJob.class);
    }

    /**
     * The operator's own admission check, dev.flowscale.operator.SpecValidator#problems. It is
     * package-private, so it is called reflectively; a rename fails here with the reason.
     */
    @SuppressWarnings("unchecked")
    static List<String> problems(StreamJobSpec spec) {
        try {
            Method problems =
                    Class.forName("dev.flowscale.operator.SpecValidator")
                            .getDeclaredMethod("problems", StreamJobSpec.class);
            problems.setAccessible(true);
            return (List<String>) problems.invoke(null, spec);
        } catch (ReflectiveOperationException e) {
            Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
            throw new AssertionError(
                    "cannot call SpecValidator.problems(StreamJobSpec) of the operator: " + cause,
                    cause);
        }
    }
}
