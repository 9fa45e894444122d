package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Recognises a scale-up that added (almost) no capacity: CPU contention among the instances of one
 * pod, a hot key that stays on one instance, an external limit such as a rate-limited service.
 * Expected gain is linear (DS2's assumption): from p to q instances, capacity × (q/p − 1). When the
 * measured gain is below {@code minGainShare} of that, more instances will not help: hold the
 * operator at the smaller parallelism.
 */
public final class IneffectiveScaleUp {

    /** A scale-up that delivered less than a quarter of its expected gain is called ineffective. */
    public static final double DEFAULT_MIN_GAIN_SHARE = 0.25;

    private IneffectiveScaleUp() {}

    /**
     * What an ineffective scale-up showed.
     *
     * @param from parallelism before the scale-up, where the operator should be held
     * @param to parallelism after it
     * @param capacityBefore aggregate true processing rate at {@code from} (records per second)
     * @param capacityAfter aggregate true processing rate at {@code to}
     */
    public record Verdict(
            String operatorId, int from, int to, double capacityBefore, double capacityAfter) {

        /** The parallelism to hold the operator at. */
        public int holdAt() {
            return from;
        }

        /**
         * E.g. "count: 4 -> 8 raised capacity 1,010 -> 1,050 rec/s (+4 %, expected +100 %); ...".
         */
        public String reason() {
            return String.format(
                    Locale.ROOT,
                    "%s: %d -> %d raised capacity %,.0f -> %,.0f rec/s (%+.0f %%, expected"
                            + " %+.0f %%); more instances will not help; holding at %d",
                    operatorId,
                    from,
                    to,
                    capacityBefore,
                    capacityAfter,
                    100 * (capacityAfter / capacityBefore - 1),
                    100 * ((double) to / from - 1),
                    from);
        }
    }

    /** Compares two measurements; a verdict only when {@code to > from} and the gain fell short. */
    public static Optional<Verdict> check(
            String operatorId,
            int from,
            double capacityBefore,
            int to,
            double capacityAfter,
            double minGainShare) {
        Checks.notBlank(operatorId, "operator id");
        Checks.positive(from, "operator '" + operatorId + "' parallelism before the scale-up");
        Checks.positive(to, "operator '" + operatorId + "' parallelism after the scale-up");
        if (!(capacityBefore > 0)
                || !(capacityAfter >= 0)
                || !Double.isFinite(capacityAfter)
                || !Double.isFinite(capacityBefore)) {
            throw new PolicyException(
                    "operator '"
                            + operatorId
                            + "' capacities "
                            + capacityBefore
                            + " -> "
                            + capacityAfter
                            + " are not measurements; pass finite rates, the first one > 0");
        }
        if (!(minGainShare > 0 && minGainShare <= 1)) {
            throw new PolicyException(
                    "minGainShare is " + minGainShare + "; use a fraction in (0, 1], e.g. 0.25");
        }
        if (to <= from) {
            return Optional.empty();
        }
        double expected = capacityBefore * ((double) to / from - 1);
        double gained = capacityAfter - capacityBefore;
        return gained < minGainShare * expected
                ? Optional.of(new Verdict(operatorId, from, to, capacityBefore, capacityAfter))
                : Optional.empty();
    }

    /**
     * Looks at the operator's latest change of parallelism in the history: the parallelism of its
     * newest observation against the one observed just before it changed. Capacities are the
     * medians of all observations at each parallelism, so one noisy window decides nothing.
     */
    public static Optional<Verdict> detect(
            String operatorId, ScalabilityHistory history, double minGainShare) {
        List<CapacityObservation> list =
                Checks.notNull(history, "scalability history").of(operatorId);
        if (list.isEmpty()) {
            return Optional.empty();
        }
        int now = list.get(list.size() - 1).parallelism();
        for (int i = list.size() - 2; i >= 0; i--) {
            int before = list.get(i).parallelism();
            if (before != now) {
                Map<Integer, Double> medians = ScalabilityFit.medians(list);
                return check(
                        operatorId,
                        before,
                        medians.get(before),
                        now,
                        medians.get(now),
                        minGainShare);
            }
        }
        return Optional.empty();
    }
}
