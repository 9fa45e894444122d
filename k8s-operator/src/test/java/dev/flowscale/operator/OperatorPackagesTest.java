package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The operator is layered one way: {@code api} (the resource) at the bottom, {@code core} (the
 * pass's status, conditions, Events), then {@code runner} and {@code flink} (what changes a runner
 * or a Flink job), {@code loop} (the autoscaler loops, which only read status and record targets in
 * it), and the reconciler at the top; no package and no class calls back up. The dependencies are
 * read from the compiled classes by the JDK's jdeps (a nested class counts as its outer class).
 */
class OperatorPackagesTest {
    private static final Pattern EDGE =
            Pattern.compile(
                    "^\\s+dev\\.flowscale\\.operator(\\S*)\\s+->\\s+"
                            + "dev\\.flowscale\\.operator(\\S*)\\s",
                    Pattern.MULTILINE);

    @Test
    void theOperatorsPackagesFormNoCycle() throws Exception {
        assertThat(inCycles(dependencies("-verbose:package"))).as("packages in a cycle").isEmpty();
    }

    @Test
    void theOperatorsClassesFormNoCycle() throws Exception {
        assertThat(inCycles(dependencies("-verbose:class"))).as("classes in a cycle").isEmpty();
    }

    @Test
    void lowerPackagesNeverUseHigherOnes() throws Exception {
        Map<String, Set<String>> deps = dependencies("-verbose:package");
        assertThat(deps.getOrDefault(".api", Set.of())).isEmpty();
        assertThat(deps.getOrDefault(".core", Set.of())).containsOnly(".api");
        for (String middle : List.of(".runner", ".flink")) {
            assertThat(deps.getOrDefault(middle, Set.of()))
                    .as(middle)
                    .doesNotContain("", ".loop", ".runner".equals(middle) ? ".flink" : ".runner");
        }
        assertThat(deps.getOrDefault(".loop", Set.of())).doesNotContain("", ".runner");
    }

    @Test
    void aCycleIsFoundWithEveryMemberInIt() {
        Map<String, Set<String>> deps =
                Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertThat(inCycles(deps)).containsExactly("a", "b", "c");
    }

    /** Package (or class) without the operator's prefix to those of the operator it uses. */
    private static Map<String, Set<String>> dependencies(String verbose) throws Exception {
        Path classes =
                Path.of(
                        StreamJobReconciler.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code =
                ToolProvider.findFirst("jdeps")
                        .orElseThrow()
                        .run(
                                new PrintStream(out, true, StandardCharsets.UTF_8),
                                System.err,
                                verbose,
                                "-filter:none",
                                "-e",
                                "dev\\.flowscale\\.operator\\b.*",
                                classes.toString());
        assertThat(code).as("jdeps exit code").isZero();
        Map<String, Set<String>> deps = new TreeMap<>();
        Matcher m = EDGE.matcher(out.toString(StandardCharsets.UTF_8));
        while (m.find()) {
            String from = outer(m.group(1));
            String to = outer(m.group(2));
            if (!from.equals(to)) {
                deps.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
            }
        }
        assertThat(deps).as("jdeps found the operator's code").isNotEmpty();
        return deps;
    }

    private static String outer(String name) {
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    /** Every node from which a path of dependencies leads back to itself. */
    static Set<String> inCycles(Map<String, Set<String>> deps) {
        Set<String> found = new TreeSet<>();
        for (String start : deps.keySet()) {
            Set<String> seen = new HashSet<>();
            Deque<String> todo = new ArrayDeque<>(deps.get(start));
            while (!todo.isEmpty()) {
                String next = todo.pop();
                if (next.equals(start)) {
                    found.add(start);
                    break;
                }
                if (seen.add(next)) {
                    todo.addAll(deps.getOrDefault(next, Set.of()));
                }
            }
        }
        return found;
    }
}
