package dev.flowscale.bench;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.ChainPlan;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * How far apart the chained and unchained columns of {@link ChainAccuracyBenchmark} would be with
 * no chaining at all: the operators that run alone on a thread in both layouts (nothing chained to
 * them) differ only by the runs' noise, and each operator's rate varies over the runs of one
 * layout. A chained operator's difference within that floor says nothing about chaining. Sinks are
 * left out: a counting sink's rate means nothing either way (docs/engine.md).
 */
final class ChainNoise {
    private ChainNoise() {}

    /** One line: the floor from the operators alone in both layouts, and the runs' spread. */
    static String describe(JobGraph graph, List<ChainDecision> chained, List<ChainDecision> alone) {
        return "noise floor: alone in both layouts"
                + aloneInBoth(graph, chained, alone)
                + "; "
                + widestSpread(graph, chained, alone);
    }

    private static String aloneInBoth(
            JobGraph graph, List<ChainDecision> chained, List<ChainDecision> alone) {
        Map<String, String> heads = ChainPlan.heads(graph);
        StringBuilder line = new StringBuilder();
        for (String op : graph.topologicalOrder()) {
            boolean headsOnlyItself = heads.values().stream().filter(op::equals).count() == 1;
            if (headsOnlyItself && !graph.outputsOf(op).isEmpty()) {
                double c = median(chained, d -> d.trueProcessingRate(op));
                double u = median(alone, d -> d.trueProcessingRate(op));
                line.append(String.format(Locale.ROOT, " %s %+.1f %%", op, (c / u - 1) * 100));
            }
        }
        return line.toString();
    }

    private static String widestSpread(
            JobGraph graph, List<ChainDecision> chained, List<ChainDecision> alone) {
        String widest = "";
        double spread = 0;
        for (String op : graph.topologicalOrder()) {
            for (List<ChainDecision> runs : List.of(chained, alone)) {
                Stats s = stats(runs, d -> d.trueProcessingRate(op));
                if (!graph.outputsOf(op).isEmpty() && s.max() / s.min() - 1 > spread) {
                    spread = s.max() / s.min() - 1;
                    widest = op;
                }
            }
        }
        return String.format(
                Locale.ROOT,
                "widest spread of one layout's runs (max / min − 1) %.1f %% (%s)",
                spread * 100,
                widest);
    }

    private static double median(List<ChainDecision> runs, Function<ChainDecision, Double> rate) {
        return stats(runs, rate).median();
    }

    private static Stats stats(List<ChainDecision> runs, Function<ChainDecision, Double> rate) {
        return Stats.of(runs.stream().map(rate).toList());
    }
}
