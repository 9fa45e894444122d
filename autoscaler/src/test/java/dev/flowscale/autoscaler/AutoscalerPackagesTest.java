package dev.flowscale.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The autoscaler's main classes never use the engine (the operator's image carries neither the
 * engine nor RocksDB), and its packages are layered: metrics at the bottom, then window, export and
 * loop; the realizer stands apart. Read from the compiled classes by the JDK's jdeps, so a fully
 * qualified name counts as much as an import.
 */
class AutoscalerPackagesTest {
    private static final Pattern EDGE =
            Pattern.compile(
                    "^\\s+dev\\.flowscale\\.autoscaler\\.?(\\S*)\\s+->\\s+(dev\\.flowscale\\.\\S+)\\s",
                    Pattern.MULTILINE);

    @Test
    void noClassUsesTheEngine() throws Exception {
        dependencies()
                .forEach(
                        (pkg, uses) ->
                                assertThat(uses)
                                        .as("packages used by autoscaler package '%s'", pkg)
                                        .noneMatch(p -> p.startsWith("dev.flowscale.engine")));
    }

    @Test
    void eachPackageUsesOnlyTheOnesBelowIt() throws Exception {
        Map<String, Set<String>> allowed =
                Map.of(
                        "", Set.of(),
                        "metrics", Set.of(""),
                        "window", Set.of("metrics"),
                        "export", Set.of("window"),
                        "loop", Set.of("metrics", "window", "export"),
                        "realizer", Set.of(""));
        dependencies()
                .forEach(
                        (pkg, uses) ->
                                assertThat(own(uses))
                                        .as("autoscaler packages used by '%s'", pkg)
                                        .isSubsetOf(allowed.getOrDefault(pkg, Set.of())));
    }

    /** The autoscaler's own packages among {@code uses}, without the prefix ("" for the root). */
    private static Set<String> own(Set<String> uses) {
        Set<String> own = new TreeSet<>();
        for (String p : uses) {
            if (p.equals("dev.flowscale.autoscaler")) {
                own.add("");
            } else if (p.startsWith("dev.flowscale.autoscaler.")) {
                own.add(p.substring("dev.flowscale.autoscaler.".length()));
            }
        }
        return own;
    }

    /** Package (without the autoscaler's prefix) to the flowscale packages its classes use. */
    private static Map<String, Set<String>> dependencies() throws Exception {
        Path classes =
                Path.of(
                        AutoscalerException.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code =
                jdeps.run(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        System.err,
                        "-verbose:package",
                        "-filter:none",
                        "-e",
                        "dev\\.flowscale\\..*",
                        classes.toString());
        assertThat(code).as("jdeps exit code").isZero();
        Map<String, Set<String>> deps = new TreeMap<>();
        Matcher m = EDGE.matcher(out.toString(StandardCharsets.UTF_8));
        while (m.find()) {
            String from = m.group(1);
            String to = m.group(2);
            if (!to.equals("dev.flowscale.autoscaler" + (from.isEmpty() ? "" : "." + from))) {
                deps.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
            }
        }
        assertThat(deps).as("jdeps found the autoscaler's packages").containsKey("loop");
        return deps;
    }
}
