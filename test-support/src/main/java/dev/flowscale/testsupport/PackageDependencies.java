package dev.flowscale.testsupport;

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

/**
 * Which packages a module's compiled classes use, read by the JDK's jdeps, so a fully qualified
 * name counts as much as an import: for the tests that keep a module's packages layered.
 */
public final class PackageDependencies {
    private static final Pattern EDGE =
            Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s", Pattern.MULTILINE);

    private PackageDependencies() {}

    /**
     * Each package of the classes beside {@code anyClass} whose name starts with {@code prefix}, to
     * the other packages starting with {@code used} that its classes use (full names).
     */
    public static Map<String, Set<String>> of(Class<?> anyClass, String prefix, String used)
            throws Exception {
        Path classes =
                Path.of(anyClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code =
                jdeps.run(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        System.err,
                        "-verbose:package",
                        "-filter:none",
                        "-e",
                        Pattern.quote(used) + ".*",
                        classes.toString());
        if (code != 0) {
            throw new AssertionError("jdeps exited with " + code + " on " + classes);
        }
        Map<String, Set<String>> deps = new TreeMap<>();
        Matcher m = EDGE.matcher(out.toString(StandardCharsets.UTF_8));
        while (m.find()) {
            if (m.group(1).startsWith(prefix) && !m.group(1).equals(m.group(2))) {
                deps.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
            }
        }
        return deps;
    }
}
