package dev.flowscale.operator.core;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** How a parallelism is written: in the runner's arguments, status, Events and log lines. */
public final class ParallelismText {
    private ParallelismText() {}

    /** The runner's {@code --parallelism} value: {@code op=p,op=p} in the map's order. */
    public static String arg(Map<String, Integer> parallelism) {
        return parallelism.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }

    /** {@code op=p,op=p} sorted by operator, or "job defaults" for an empty map. */
    public static String summary(Map<String, Integer> parallelism) {
        return parallelism.isEmpty() ? "job defaults" : arg(new TreeMap<>(parallelism));
    }
}
