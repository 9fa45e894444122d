package dev.flowscale.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one convergence run found.
 *
 * @param query the query, e.g. "Q5"
 * @param start the initial configuration's name, e.g. "all-1"
 * @param trajectory the configurations the job ran at, the initial one first
 * @param optimum the hand-computed optimum
 * @param converged whether the last configuration held for the required decisions in a row
 * @param secondsToConverge from the job's start until the last rescale finished (0 without one)
 * @param decisions every decision the policy made (blocked ones included)
 */
record ConvergenceResult(
        String query,
        String start,
        List<Map<String, Integer>> trajectory,
        Map<String, Integer> optimum,
        boolean converged,
        double secondsToConverge,
        int decisions) {

    ConvergenceResult {
        trajectory = List.copyOf(trajectory);
        optimum = Map.copyOf(optimum);
    }

    /** Rescales the policy made until it settled. */
    int rescales() {
        return trajectory.size() - 1;
    }

    Map<String, Integer> last() {
        return trajectory.get(trajectory.size() - 1);
    }

    /** Whether the job settled at exactly the hand-computed optimum. */
    boolean atOptimum() {
        return converged && last().equals(optimum);
    }

    /** Whether some configuration was run twice (the policy went back to where it had been). */
    boolean revisited() {
        return trajectory.stream().distinct().count() < trajectory.size();
    }

    /** One row of the Markdown table; configurations in the query's operator order. */
    String row(List<String> operators) {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %d | %s | %s | %s | %.1f | %s |",
                query,
                start,
                config(trajectory.get(0), operators),
                trajectory.stream()
                        .skip(1)
                        .map(c -> config(c, operators))
                        .collect(Collectors.joining(" → ")),
                rescales(),
                converged ? config(last(), operators) : "not settled",
                config(optimum, operators),
                atOptimum() ? "yes" : "no",
                secondsToConverge,
                revisited() ? "yes" : "no");
    }

    static String header() {
        return "| query | start | initial | rescaled to | rescales | settled at | optimum | at optimum"
                + " | s to settle | revisited |\n"
                + "|---|---|---|---|---|---|---|---|---|---|";
    }

    /** A configuration as parallelisms joined by '/', in {@code operators}' order. */
    static String config(Map<String, Integer> parallelism, List<String> operators) {
        return operators.stream()
                .map(op -> String.valueOf(parallelism.get(op)))
                .collect(Collectors.joining("/"));
    }
}
