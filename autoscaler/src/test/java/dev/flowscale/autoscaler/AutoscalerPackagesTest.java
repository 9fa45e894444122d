package dev.flowscale.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.testsupport.PackageDependencies;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The autoscaler's main classes never use the engine (the operator's image carries neither the
 * engine nor RocksDB), and its packages are layered: metrics at the bottom, then window, export and
 * loop, which keeps its memory through state; the realizer stands apart. Read from the compiled
 * classes by the JDK's jdeps, so a fully qualified name counts as much as an import.
 */
class AutoscalerPackagesTest {
    private static final String ROOT = "dev.flowscale.autoscaler";

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
                        "state", Set.of(""),
                        "loop", Set.of("metrics", "window", "export", "state"),
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
        Map<String, Set<String>> deps = new TreeMap<>();
        PackageDependencies.of(AutoscalerException.class, ROOT, "dev.flowscale.")
                .forEach(
                        (pkg, uses) ->
                                deps.put(
                                        pkg.equals(ROOT) ? "" : pkg.substring(ROOT.length() + 1),
                                        uses));
        assertThat(deps).as("jdeps found the autoscaler's packages").containsKey("loop");
        return deps;
    }
}
