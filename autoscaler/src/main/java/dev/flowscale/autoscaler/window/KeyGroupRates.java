package dev.flowscale.autoscaler.window;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.runner.api.Rate;
import java.util.Arrays;
import java.util.List;

/**
 * An operator's input rate in each of its key groups over a window: for every instance, the
 * difference of its cumulative per-key-group counts divided by its observed time in the window (the
 * time its observed processing rate divides by, so the key groups of an instance add up to that
 * rate, give or take the batch under way). The result is in key-group order and has one rate per
 * key group of the job; it is empty, meaning "not counted", unless the instances of the window
 * together report every key group, each over the same range at both ends of the window.
 */
final class KeyGroupRates {

    private KeyGroupRates() {}

    /**
     * @param from the operator's instances at the window's start, in instance order
     * @param to the same instances at its end
     * @param keyGroups the job's number of key groups (its max parallelism)
     */
    static List<Double> between(List<InstanceCounts> from, List<InstanceCounts> to, int keyGroups) {
        double[] rates = new double[keyGroups];
        int covered = 0;
        for (int i = 0; i < to.size(); i++) {
            InstanceCounts a = from.get(i);
            InstanceCounts b = to.get(i);
            long[] end = b.keyGroupRecords();
            long[] start = a.keyGroupRecords();
            if (end.length == 0
                    || start.length != end.length
                    || a.keyGroupFirst() != b.keyGroupFirst()
                    || b.keyGroupFirst() < 0
                    || b.keyGroupFirst() + end.length > keyGroups) {
                return List.of();
            }
            double seconds = Counters.seconds(b.observedNanos() - a.observedNanos());
            for (int j = 0; j < end.length; j++) {
                rates[b.keyGroupFirst() + j] =
                        Rate.measured(Rate.perSecond(end[j] - start[j], seconds));
            }
            covered += end.length;
        }
        return covered == keyGroups ? Arrays.stream(rates).boxed().toList() : List.of();
    }
}
