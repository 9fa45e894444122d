package dev.flowscale.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** NexmarkBench's command line, checked: every bad value is named with the fix. */
record NexmarkOptions(
        int runs,
        long events,
        List<String> queries,
        List<Integer> parallelisms,
        List<String> contenders) {
    private static final String USAGE =
            "use --runs N, --events N, --queries q1,q2,q3,q5,q8,q11, --parallelism 1,2,"
                    + " --contenders flowscale,flink";

    static NexmarkOptions parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                throw new IllegalArgumentException(
                        "expected an option and its value at '" + args[i] + "'; " + USAGE);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        NexmarkOptions parsed =
                new NexmarkOptions(
                        (int) positive(options.getOrDefault("runs", "5"), "runs"),
                        positive(options.getOrDefault("events", "5000000"), "events"),
                        list(
                                options.getOrDefault(
                                        "queries", String.join(",", NexmarkBench.QUERIES))),
                        list(options.getOrDefault("parallelism", "1,2")).stream()
                                .map(p -> (int) positive(p, "parallelism"))
                                .toList(),
                        list(options.getOrDefault("contenders", "flowscale,flink")));
        options.keySet().stream()
                .filter(
                        k ->
                                !List.of("runs", "events", "queries", "parallelism", "contenders")
                                        .contains(k))
                .findFirst()
                .ifPresent(
                        k -> {
                            throw new IllegalArgumentException(
                                    "unknown option --" + k + "; " + USAGE);
                        });
        parsed.check();
        return parsed;
    }

    private void check() {
        for (String query : queries) {
            if (!NexmarkBench.QUERIES.contains(query)) {
                throw new IllegalArgumentException(NexmarkBench.unknownQuery(query));
            }
        }
        for (String contender : contenders) {
            if (!contender.equals("flowscale") && !contender.equals("flink")) {
                throw new IllegalArgumentException(
                        "--contenders: unknown contender '" + contender + "'; use flowscale,flink");
            }
        }
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).toList();
    }

    private static long positive(String value, String option) {
        try {
            long n = Long.parseLong(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "--" + option + " is '" + value + "'; use a whole number of at least 1");
    }
}
