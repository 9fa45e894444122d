package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A bounded, immutable record of each operator's capacity observations, oldest first. The bound
 * keeps diversity, which a fit needs more than recency: at most {@code perParallelism} observations
 * per distinct parallelism, and at most {@code parallelisms} distinct parallelisms per operator
 * (the one observed least recently is dropped first). Carried by the loop from one decision to the
 * next; {@link #record} returns a new history.
 */
public record ScalabilityHistory(
        int perParallelism, int parallelisms, Map<String, List<CapacityObservation>> observations) {

    public ScalabilityHistory {
        Checks.positive(perParallelism, "scalability history perParallelism");
        if (parallelisms < 2) {
            throw new PolicyException(
                    "scalability history parallelisms is "
                            + parallelisms
                            + "; keep at least 2 distinct parallelisms, or no curve can be fitted");
        }
        Map<String, List<CapacityObservation>> copy = new LinkedHashMap<>();
        Checks.notNull(observations, "scalability history observations")
                .forEach((id, list) -> copy.put(id, List.copyOf(list)));
        observations = Collections.unmodifiableMap(copy);
    }

    /** An empty history keeping 5 observations at each of up to 8 parallelisms per operator. */
    public static ScalabilityHistory empty() {
        return empty(5, 8);
    }

    public static ScalabilityHistory empty(int perParallelism, int parallelisms) {
        return new ScalabilityHistory(perParallelism, parallelisms, Map.of());
    }

    /** Observations of one operator, oldest first (empty when none). */
    public List<CapacityObservation> of(String operatorId) {
        return observations.getOrDefault(operatorId, List.of());
    }

    /** Distinct parallelisms observed for the operator, ascending. */
    public Set<Integer> parallelismsOf(String operatorId) {
        Set<Integer> ps = new TreeSet<>();
        of(operatorId).forEach(o -> ps.add(o.parallelism()));
        return ps;
    }

    /**
     * This history plus one observation per operator of the window that processed records; an
     * operator already observed at or after the window's end (a window seen twice) is skipped.
     */
    public ScalabilityHistory record(MetricsWindow window) {
        Map<String, List<CapacityObservation>> next = new HashMap<>(observations);
        for (OperatorMetrics m : window.operators().values()) {
            List<CapacityObservation> old = of(m.operatorId());
            boolean newer = old.isEmpty() || window.end().isAfter(old.get(old.size() - 1).at());
            if (newer && Double.isFinite(m.trueProcessingRate()) && m.trueProcessingRate() > 0) {
                CapacityObservation o =
                        new CapacityObservation(
                                window.end(), m.parallelism(), m.trueProcessingRate());
                next.put(m.operatorId(), bounded(next.getOrDefault(m.operatorId(), List.of()), o));
            }
        }
        return new ScalabilityHistory(perParallelism, parallelisms, next);
    }

    /** This history plus one observation of one operator. */
    public ScalabilityHistory with(String operatorId, CapacityObservation o) {
        Map<String, List<CapacityObservation>> next = new HashMap<>(observations);
        next.put(operatorId, bounded(of(operatorId), o));
        return new ScalabilityHistory(perParallelism, parallelisms, next);
    }

    private List<CapacityObservation> bounded(
            List<CapacityObservation> old, CapacityObservation added) {
        List<CapacityObservation> list = new ArrayList<>(old);
        list.add(added);
        if (list.stream().filter(o -> o.parallelism() == added.parallelism()).count()
                > perParallelism) {
            list.remove(firstAt(list, added.parallelism()));
        }
        if (list.stream().map(CapacityObservation::parallelism).distinct().count() > parallelisms) {
            int stalest = leastRecentlyObserved(list);
            list.removeIf(o -> o.parallelism() == stalest);
        }
        return list;
    }

    private static int firstAt(List<CapacityObservation> list, int p) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).parallelism() == p) {
                return i;
            }
        }
        throw new IllegalStateException("no observation at parallelism " + p);
    }

    /** The parallelism whose latest observation is the oldest one. */
    private static int leastRecentlyObserved(List<CapacityObservation> list) {
        Map<Integer, Integer> lastIndex = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            lastIndex.put(list.get(i).parallelism(), i);
        }
        return lastIndex.entrySet().stream()
                .min(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
    }
}
