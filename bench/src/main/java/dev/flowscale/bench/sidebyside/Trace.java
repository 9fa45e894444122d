package dev.flowscale.bench.sidebyside;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one autoscaler did to its job, sampled every few seconds: the parallelism per operator and
 * the words due but not yet counted. The figures are computed against the load's hand-computed
 * optimum.
 */
final class Trace {
    /** One observation; {@code parallelism} null while the job was not running (a restart). */
    record Point(double seconds, Map<String, Integer> parallelism, double backlogWords) {}

    private final SideBySideLoad load;
    private final List<Point> points = new ArrayList<>();

    Trace(SideBySideLoad load) {
        this.load = load;
    }

    void add(Point point) {
        points.add(point);
    }

    /** The same trace cut at {@code seconds}: a longer run's figures over a shorter one's span. */
    Trace until(double seconds) {
        Trace cut = new Trace(load);
        points.stream().filter(p -> p.seconds() <= seconds).forEach(cut::add);
        return cut;
    }

    /** Changes of configuration seen between consecutive running observations. */
    int rescales() {
        int changes = 0;
        Map<String, Integer> last = null;
        for (Point p : points) {
            if (p.parallelism() != null) {
                if (last != null && !last.equals(p.parallelism())) {
                    changes++;
                }
                last = p.parallelism();
            }
        }
        return changes;
    }

    /** The configurations in order, each once: 1/1/1 -> 1/3/5 ... (Sentences/Split/Count). */
    String path() {
        List<String> seen = new ArrayList<>();
        for (Point p : points) {
            if (p.parallelism() != null) {
                String shown = shown(p.parallelism());
                if (seen.isEmpty() || !Objects.equals(seen.get(seen.size() - 1), shown)) {
                    seen.add(shown);
                }
            }
        }
        return String.join(" -> ", seen);
    }

    /**
     * Seconds from the start to the first observation from which every later one sustains the load;
     * NaN if none.
     */
    double secondsToSustaining() {
        double since = Double.NaN;
        for (Point p : points) {
            boolean ok = p.parallelism() != null && sustains(p.parallelism());
            if (!ok) {
                since = Double.NaN;
            } else if (Double.isNaN(since)) {
                since = p.seconds();
            }
        }
        return since;
    }

    /** Instance-minutes above the optimum (restarts count the last configuration). */
    double overProvisionedInstanceMinutes() {
        double total = 0;
        Map<String, Integer> last = null;
        for (int i = 1; i < points.size(); i++) {
            Map<String, Integer> now = points.get(i - 1).parallelism();
            last = now == null ? last : now;
            if (last != null) {
                int extra = instances(last) - load.optimumInstances();
                total +=
                        Math.max(0, extra)
                                * (points.get(i).seconds() - points.get(i - 1).seconds())
                                / 60;
            }
        }
        return total;
    }

    double maxBacklogSeconds() {
        return points.stream().mapToDouble(Point::backlogWords).max().orElse(0)
                / load.wordsPerSecond();
    }

    double finalBacklogSeconds() {
        return points.isEmpty()
                ? Double.NaN
                : points.get(points.size() - 1).backlogWords() / load.wordsPerSecond();
    }

    private boolean sustains(Map<String, Integer> parallelism) {
        return load.optimum().entrySet().stream()
                .allMatch(e -> parallelism.getOrDefault(e.getKey(), 0) >= e.getValue());
    }

    private static int instances(Map<String, Integer> parallelism) {
        return parallelism.values().stream().mapToInt(Integer::intValue).sum();
    }

    static String shown(Map<String, Integer> parallelism) {
        return parallelism.getOrDefault("Sentences", 0)
                + "/"
                + parallelism.getOrDefault("Split", 0)
                + "/"
                + parallelism.getOrDefault("Count", 0);
    }
}
