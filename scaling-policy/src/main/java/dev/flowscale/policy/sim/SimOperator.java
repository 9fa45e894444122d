package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.model.KeyGroupRange;

/**
 * A simulated operator. Capacity of p instances is {@code capacity × p^alpha / (1 + overhead × (p -
 * 1))}; with skew s, one instance receives the hot key (the share s of the input) besides its key
 * groups' share of the rest (see {@link #share}) and limits the operator. A source (non-null {@code
 * rate}) reads what its profile offers, up to its capacity.
 *
 * @param capacity records per second one instance processes (sources: emits) alone
 * @param selectivity records emitted per record processed
 * @param alpha scaling exponent, in (0, 1]; 1 is linear
 * @param overhead capacity lost per additional instance, relative (0.05 = 5 %)
 * @param skew share of the input that goes to one hot instance, in [0, 1)
 */
public record SimOperator(
        String id,
        double capacity,
        double selectivity,
        double alpha,
        double overhead,
        double skew,
        int keyGroups,
        RateProfile rate) {

    public SimOperator {
        Checks.notBlank(id, "simulated operator id");
        if (!(capacity > 0)
                || selectivity < 0
                || !(alpha > 0 && alpha <= 1)
                || overhead < 0
                || skew < 0
                || skew >= 1) {
            throw new PolicyException(
                    "simulated operator '"
                            + id
                            + "' needs capacity > 0, selectivity >= 0,"
                            + " alpha in (0, 1], overhead >= 0 and skew in [0, 1)");
        }
        Checks.positive(keyGroups, "simulated operator '" + id + "' keyGroups");
    }

    public static SimOperator source(String id, double capacity, RateProfile rate) {
        return new SimOperator(id, capacity, 1, 1, 0, 0, OperatorSpec.DEFAULT_KEY_GROUPS, rate);
    }

    public static SimOperator operator(String id, double capacity, double selectivity) {
        return new SimOperator(
                id, capacity, selectivity, 1, 0, 0, OperatorSpec.DEFAULT_KEY_GROUPS, null);
    }

    public SimOperator withAlpha(double a) {
        return new SimOperator(id, capacity, selectivity, a, overhead, skew, keyGroups, rate);
    }

    public SimOperator withOverhead(double o) {
        return new SimOperator(id, capacity, selectivity, alpha, o, skew, keyGroups, rate);
    }

    public SimOperator withSkew(double s) {
        return new SimOperator(id, capacity, selectivity, alpha, overhead, s, keyGroups, rate);
    }

    /** The operator with {@code k} key groups: it never runs more than k instances. */
    public SimOperator withKeyGroups(int k) {
        return new SimOperator(id, capacity, selectivity, alpha, overhead, skew, k, rate);
    }

    /**
     * Whether its capacity grows exactly linearly with parallelism: no sub-linear exponent, no
     * overhead, no hot key (the settling criteria hold such an operator to exactly its minimum).
     */
    public boolean scalesLinearly() {
        return alpha() == 1 && overhead() == 0 && skew() == 0;
    }

    public boolean isSource() {
        return rate != null;
    }

    /** What one instance processes per second at parallelism p (its true processing rate). */
    public double perInstanceCapacity(int p) {
        return capacity * Math.pow(p, alpha - 1) / (1 + overhead * (p - 1));
    }

    /**
     * The share of the input that instance {@code k} of {@code p} receives. Without skew, 1/p. With
     * skew the operator is keyed: the hot key lies in key group 0 and the rest spreads evenly over
     * the key groups, which instances own in Flink's ranges (instance 0 owns ⌈K/p⌉ of them and is
     * hot).
     */
    public double share(int k, int p) {
        if (skew == 0) {
            return 1.0 / p;
        }
        double owned = KeyGroupRange.of(k, p, keyGroups).size() / (double) keyGroups;
        return (k == 0 ? skew : 0) + (1 - skew) * owned;
    }

    /**
     * The share of the input in key group {@code group} of the operator's {@link #keyGroups} key
     * groups: the hot key's share {@code skew} lies in key group 0 (owned by instance 0), the rest
     * spreads evenly over all key groups.
     */
    public double keyGroupShare(int group) {
        double even = (1 - skew) / keyGroups;
        return group == 0 ? skew + even : even;
    }

    /**
     * Records per second the operator sustains at parallelism p: limited by its hottest instance.
     */
    public double effectiveCapacity(int p) {
        return perInstanceCapacity(p) / share(0, p);
    }
}
