package dev.flowscale.engine.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The tables of docs/runner-api.md, parsed: what the contract test holds the server to. */
record RunnerApiDoc(List<Row> rows, List<String> notFoundExamples) {
    static final Path FILE = Path.of("..", "docs", "runner-api.md");
    private static final Pattern ROW =
            Pattern.compile(
                    "^\\| (GET|POST|PUT|PATCH|DELETE) \\| `([^`]+)` \\|([^|]*)\\| (\\d{3}) \\|([^|]*)\\|");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /**
     * One documented answer.
     *
     * @param fields the JSON object's top-level fields; {@code ["status", "error"]} for errors;
     *     empty for text
     */
    record Row(String method, String path, int status, Set<String> fields, boolean text) {}

    static RunnerApiDoc read() throws IOException {
        List<Row> rows = new ArrayList<>();
        List<String> notFound = new ArrayList<>();
        for (String line : Files.readAllLines(FILE)) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                rows.add(
                        new Row(
                                m.group(1),
                                m.group(2),
                                Integer.parseInt(m.group(4)),
                                fields(m.group(5).trim()),
                                m.group(5).trim().equals("text")));
            } else if (line.startsWith("| any method on a path not in the table")) {
                Matcher code = CODE.matcher(line);
                while (code.find()) {
                    notFound.add(code.group(1));
                }
            }
        }
        return new RunnerApiDoc(rows, notFound);
    }

    private static Set<String> fields(String cell) {
        if (cell.equals("error")) {
            return Set.of("status", "error");
        }
        Set<String> fields = new LinkedHashSet<>();
        Matcher code = CODE.matcher(cell);
        while (code.find()) {
            fields.add(code.group(1));
        }
        return fields;
    }

    /** Path to documented methods. */
    Map<String, Set<String>> routes() {
        Map<String, Set<String>> routes = new TreeMap<>();
        rows.forEach(r -> routes.computeIfAbsent(r.path(), p -> new TreeSet<>()).add(r.method()));
        return routes;
    }

    /** The documented answer of {@code method path} with {@code status}, if any. */
    java.util.Optional<Row> row(String method, String path, int status) {
        return rows.stream()
                .filter(
                        r ->
                                r.method().equals(method)
                                        && r.path().equals(path)
                                        && r.status() == status)
                .findFirst();
    }

    /** The Allow header the document promises for {@code path}. */
    String allow(String path) {
        Set<String> allowed = new TreeSet<>(routes().get(path));
        if (allowed.contains("GET")) {
            allowed.add("HEAD");
        }
        allowed.add("OPTIONS");
        return String.join(", ", allowed);
    }
}
