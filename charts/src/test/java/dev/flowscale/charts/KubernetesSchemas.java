package dev.flowscale.charts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Validates objects against the Kubernetes schemas with the npm packages kubernetes-models and
 * {@code @kubernetes-models/prometheus-operator}, and StreamJobs against the CRD, by running
 * src/test/node/validate.js. {@code npm ci} runs once per test run, into target/node.
 */
final class KubernetesSchemas {
    static final Path SOURCES = Path.of("src", "test", "node");
    static final Path WORK = Path.of("target", "node");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static boolean installed;
    private static int runs;

    /** An object to validate and where it came from (shown in failures). */
    record Entry(String source, JsonNode object) {}

    /** What the validator printed and its exit code (0: every object is valid). */
    record Result(int exitCode, String output) {
        boolean valid() {
            return exitCode == 0;
        }
    }

    private KubernetesSchemas() {}

    static synchronized Result validate(List<Entry> entries) {
        install();
        Path objects = WORK.resolve("objects-" + ++runs + ".json");
        try {
            ArrayNode array = JSON.createArrayNode();
            entries.forEach(
                    e -> array.addObject().put("source", e.source()).set("object", e.object()));
            JSON.writeValue(objects.toFile(), array);
            JSON.writeValue(WORK.resolve("crd.json").toFile(), CrdFile.read());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the objects to validate to " + objects, e);
        }
        Processes.Run run =
                Processes.run(
                        WORK,
                        60,
                        "node",
                        "validate.js",
                        objects.getFileName().toString(),
                        "crd.json");
        return new Result(run.exitCode(), run.output());
    }

    /** Installs the locked npm packages; fails (never skips) when npm cannot reach its registry. */
    private static void install() {
        if (installed) {
            return;
        }
        try {
            Files.createDirectories(WORK);
            for (String file : List.of("package.json", "package-lock.json", "validate.js")) {
                Files.copy(
                        SOURCES.resolve(file),
                        WORK.resolve(file),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + SOURCES + " to " + WORK, e);
        }
        Processes.Run run =
                Processes.run(
                        WORK, 180, "npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund");
        if (run.exitCode() != 0) {
            throw new AssertionError(
                    "npm ci in "
                            + WORK
                            + " failed (exit "
                            + run.exitCode()
                            + "); the schema tests"
                            + " need the npm registry (CI has access):\n"
                            + run.output());
        }
        installed = true;
    }
}
