package dev.flowscale.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.testsupport.PackageDependencies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages are layered: {@code api} (functions, state, exceptions) at the bottom, the
 * job-building {@code job} package above the runtime, and no cycle anywhere. Dependencies are read
 * from the compiled classes by the JDK's jdeps, so a fully qualified name counts as much as an
 * import.
 */
class EnginePackagesTest {
    private static final String ENGINE = "dev.flowscale.engine.";

    @Test
    void theEnginesPackagesFormNoCycle() throws Exception {
        assertThat(cycles(dependencies())).as("package cycles").isEmpty();
    }

    @Test
    void theApiPackageDependsOnNoOtherEnginePackage() throws Exception {
        assertThat(dependencies().getOrDefault("api", Set.of())).isEmpty();
    }

    @Test
    void theRuntimeDoesNotDependOnTheJobBuildingPackage() throws Exception {
        Map<String, Set<String>> deps = dependencies();
        for (String lower :
                List.of("runtime", "graph", "state", "checkpoint", "source", "metrics", "runner")) {
            assertThat(deps.getOrDefault(lower, Set.of())).as(lower).doesNotContain("job");
        }
    }

    @Test
    void aCycleIsFoundWithEveryPackageInIt() {
        Map<String, Set<String>> deps =
                Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertThat(cycles(deps)).containsExactly(Set.of("a", "b", "c"));
    }

    /** Package (without the engine's prefix) to the engine packages its classes use. */
    static Map<String, Set<String>> dependencies() throws Exception {
        Map<String, Set<String>> deps = new TreeMap<>();
        PackageDependencies.of(JobBuilder.class, ENGINE, ENGINE)
                .forEach(
                        (pkg, uses) ->
                                deps.put(
                                        pkg.substring(ENGINE.length()),
                                        new TreeSet<>(
                                                uses.stream()
                                                        .map(u -> u.substring(ENGINE.length()))
                                                        .toList())));
        assertThat(deps).as("jdeps found the engine's packages").containsKeys("runtime", "job");
        return deps;
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm). */
    static List<Set<String>> cycles(Map<String, Set<String>> deps) {
        return new Tarjan(deps).components.stream().filter(c -> c.size() > 1).toList();
    }

    private static final class Tarjan {
        final Map<String, Set<String>> deps;
        final Map<String, Integer> index = new TreeMap<>();
        final Map<String, Integer> low = new TreeMap<>();
        final List<String> stack = new ArrayList<>();
        final List<Set<String>> components = new ArrayList<>();

        Tarjan(Map<String, Set<String>> deps) {
            this.deps = deps;
            new TreeSet<>(deps.keySet())
                    .forEach(
                            p -> {
                                if (!index.containsKey(p)) {
                                    visit(p);
                                }
                            });
        }

        void visit(String p) {
            index.put(p, index.size());
            low.put(p, index.get(p));
            stack.add(p);
            for (String q : deps.getOrDefault(p, Set.of())) {
                if (!index.containsKey(q)) {
                    visit(q);
                    low.put(p, Math.min(low.get(p), low.get(q)));
                } else if (stack.contains(q)) {
                    low.put(p, Math.min(low.get(p), index.get(q)));
                }
            }
            if (low.get(p).equals(index.get(p))) {
                Set<String> component = new TreeSet<>();
                String q;
                do {
                    q = stack.remove(stack.size() - 1);
                    component.add(q);
                } while (!q.equals(p));
                components.add(component);
            }
        }
    }
}
