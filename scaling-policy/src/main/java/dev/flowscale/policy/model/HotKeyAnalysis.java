package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;

/**
 * Recognises a keyed operator whose hottest instance is saturated (busy at least {@value
 * #SATURATED} of the window) while the others idle (busy at most {@value #IDLE} on average), and
 * sizes it for its hot spot. Busy share = observed / true processing rate, i.e. useful time /
 * window.
 *
 * <p>Model (the engine reports per-instance rates, not per-key-group loads): a share s of the input
 * is one hot spot that cannot be split (one key, so one key group), the rest spreads evenly over
 * the K key groups. With the hottest instance taking the share h at parallelism p, s = (h·p − 1)/(p
 * − 1). At parallelism q the busiest instance owns ⌈K/q⌉ key groups, so it must take r·(s + (1 −
 * s)·⌈K/q⌉/K); the required parallelism is the smallest q ≤ K for which that fits in one instance's
 * capacity c·utilization. When even q = K does not, i.e. r·(s + (1 − s)/K) &gt; c·utilization, more
 * instances will not help, and the hot key groups are named.
 */
public final class HotKeyAnalysis {

    public static final double SATURATED = 0.9;
    public static final double IDLE = 0.5;

    /** Hot-spot shares below this are noise, not skew. */
    public static final double MIN_SKEW = 0.01;

    /** At most this many hot key groups are named. */
    private static final int NAMED = 5;

    private HotKeyAnalysis() {}

    /**
     * @param hotInstance index of the hottest instance at the measured parallelism
     * @param hotKeyGroups the key groups it owns: the hot key group is among them
     * @param hotShare its share h of the operator's input
     * @param hotSpotShare the unsplittable share s estimated from h
     * @param requiredParallelism smallest parallelism whose busiest instance keeps up; empty when
     *     no parallelism does (more instances will not help)
     */
    public record Assessment(
            String operatorId,
            int hotInstance,
            KeyGroupRange hotKeyGroups,
            double hotShare,
            double hotSpotShare,
            OptionalInt requiredParallelism,
            String reason) {

        public boolean moreInstancesHelp() {
            return requiredParallelism.isPresent();
        }
    }

    /**
     * The assessment of a skewed operator; empty when per-instance metrics are missing, parallelism
     * is 1, or the hottest instance is not saturated while the others idle.
     *
     * @param targetInputRate records per second the operator must process
     * @param targetUtilization share of an instance's capacity to plan for, in (0, 1]
     */
    public static Optional<Assessment> assess(
            OperatorMetrics m, int keyGroups, double targetInputRate, double targetUtilization) {
        Checks.notNull(m, "operator metrics");
        Checks.positive(keyGroups, "operator '" + m.operatorId() + "' key groups");
        Checks.finiteNotNegative(
                targetInputRate, "operator '" + m.operatorId() + "' target input rate");
        if (!(targetUtilization > 0 && targetUtilization <= 1)) {
            throw new PolicyException(
                    "target utilization is " + targetUtilization + "; use a value in (0, 1]");
        }
        List<InstanceWindowRates> instances = m.instances();
        int p = instances.size();
        if (p < 2 || p > keyGroups) {
            return Optional.empty();
        }
        int hot = hottest(instances);
        if (busy(instances.get(hot)) < SATURATED || othersBusy(instances, hot) > IDLE) {
            return Optional.empty();
        }
        return Optional.of(size(m, instances, hot, keyGroups, targetInputRate, targetUtilization));
    }

    private static Assessment size(
            OperatorMetrics m,
            List<InstanceWindowRates> instances,
            int hot,
            int keyGroups,
            double r,
            double utilization) {
        int p = instances.size();
        double total =
                instances.stream().mapToDouble(InstanceWindowRates::observedProcessingRate).sum();
        double h = instances.get(hot).observedProcessingRate() / total;
        double s = Math.max(0, Math.min(1, (h * p - 1) / (p - 1)));
        double c = instances.get(hot).trueProcessingRate() * utilization;
        int index = instances.get(hot).index();
        KeyGroupRange range = KeyGroupRange.of(index, p, keyGroups);
        OptionalInt q = OptionalInt.empty();
        for (int n = 1; n <= keyGroups && q.isEmpty(); n++) {
            if (busiestLoad(r, s, n, keyGroups) <= c * (1 + 1e-9)) {
                q = OptionalInt.of(n);
            }
        }
        String seen =
                String.format(
                        Locale.ROOT,
                        "%s: hottest instance %d of %d (key groups %s) takes %.0f %% of the"
                                + " input and is busy %.0f %% while the others average %.0f %%",
                        m.operatorId(),
                        index,
                        p,
                        range,
                        100 * h,
                        100 * busy(instances.get(hot)),
                        100 * othersBusy(instances, hot));
        String verdict =
                q.isPresent()
                        ? String.format(
                                Locale.ROOT,
                                "; with a hot spot of %.0f %% of %.1f rec/s, parallelism %d keeps its"
                                        + " busiest instance within %.1f rec/s",
                                100 * s,
                                r,
                                q.getAsInt(),
                                c)
                        : String.format(
                                Locale.ROOT,
                                "; its hot key group alone must take %.1f rec/s, more than one"
                                        + " instance's capacity %.1f rec/s: more instances will not help (hot key groups among %s)",
                                busiestLoad(r, s, keyGroups, keyGroups),
                                c,
                                range);
        return new Assessment(m.operatorId(), index, range, h, s, q, seen + verdict);
    }

    /** Input of the busiest instance at parallelism q: the hot spot plus its share of the rest. */
    static double busiestLoad(double r, double s, int q, int keyGroups) {
        return r * busiestShare(s, q, keyGroups);
    }

    /**
     * The share of the input the busiest of {@code q} instances takes when the unsplittable share
     * {@code s} lies in one key group and the rest spreads evenly over the {@code keyGroups}: the
     * hot spot plus the ⌈K/q⌉ key groups that instance owns.
     */
    public static double busiestShare(double s, int q, int keyGroups) {
        return s
                + (1 - s)
                        * KeyGroupRange.largestShare(Math.min(q, keyGroups), keyGroups)
                        / keyGroups;
    }

    /**
     * An operator's hot spot as its metrics show it: from per-key-group rates when the engine
     * counts them (at any parallelism, 1 included: the hottest key group's share g of K gives s =
     * (g·K − 1)/(K − 1)), otherwise from the hottest instance's share at parallelism 2 or more.
     * Empty when the input looks even (s below {@value #MIN_SKEW}) or nothing shows it.
     *
     * @param share the unsplittable share s of the input
     * @param keyGroups the hot key groups, named for the decision's reasons
     * @param evidence what was measured, for the decision's reasons
     */
    public record HotSpot(double share, String keyGroups, String evidence) {}

    public static Optional<HotSpot> hotSpot(OperatorMetrics m, int keyGroups) {
        // Sizes first, sums only where they count: two stream pipelines per operator were a sixth
        // of a 1,000-operator decision whose metrics carry neither list (JFR).
        List<Double> rates = m.keyGroupRates();
        if (rates.size() == keyGroups && keyGroups > 1) {
            double total = rates.stream().mapToDouble(Double::doubleValue).sum();
            if (total > 0) {
                return fromKeyGroups(rates, total);
            }
        }
        List<InstanceWindowRates> instances = m.instances();
        int p = instances.size();
        if (p < 2 || p > keyGroups) {
            return Optional.empty();
        }
        double observed =
                instances.stream().mapToDouble(InstanceWindowRates::observedProcessingRate).sum();
        if (!(observed > 0)) {
            return Optional.empty();
        }
        int hot = hottest(instances);
        double h = instances.get(hot).observedProcessingRate() / observed;
        double s = Math.max(0, Math.min(1, (h * p - 1) / (p - 1)));
        KeyGroupRange range = KeyGroupRange.of(instances.get(hot).index(), p, keyGroups);
        return s < MIN_SKEW
                ? Optional.empty()
                : Optional.of(
                        new HotSpot(
                                s,
                                "among " + range,
                                String.format(
                                        Locale.ROOT,
                                        "hottest instance %d of %d (key groups %s) takes %.0f %% of the input",
                                        instances.get(hot).index(),
                                        p,
                                        range,
                                        100 * h)));
    }

    private static Optional<HotSpot> fromKeyGroups(List<Double> rates, double total) {
        int k = rates.size();
        double max = rates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double s = Math.max(0, Math.min(1, (max / total * k - 1) / (k - 1)));
        if (s < MIN_SKEW) {
            return Optional.empty();
        }
        double even = total * (1 - s) / k;
        List<Integer> hot =
                IntStream.range(0, k)
                        .boxed()
                        .filter(g -> rates.get(g) - even > MIN_SKEW * total)
                        .sorted((a, b) -> Double.compare(rates.get(b), rates.get(a)))
                        .limit(NAMED)
                        .toList();
        return Optional.of(
                new HotSpot(
                        s,
                        hot.toString(),
                        String.format(
                                Locale.ROOT,
                                "hot key groups %s: the hottest carries %.0f %% of the input (measured per key group)",
                                hot,
                                100 * (max / total))));
    }

    private static int hottest(List<InstanceWindowRates> instances) {
        int hot = 0;
        for (int i = 1; i < instances.size(); i++) {
            if (instances.get(i).observedProcessingRate()
                    > instances.get(hot).observedProcessingRate()) {
                hot = i;
            }
        }
        return hot;
    }

    private static double busy(InstanceWindowRates i) {
        return i.trueProcessingRate() > 0
                ? Math.min(1, i.observedProcessingRate() / i.trueProcessingRate())
                : 0;
    }

    private static double othersBusy(List<InstanceWindowRates> instances, int hot) {
        double sum = 0;
        for (int i = 0; i < instances.size(); i++) {
            sum += i == hot ? 0 : busy(instances.get(i));
        }
        return sum / (instances.size() - 1);
    }
}
