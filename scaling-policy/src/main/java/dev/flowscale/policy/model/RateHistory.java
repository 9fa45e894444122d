package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import java.util.ArrayList;
import java.util.List;

/**
 * The latest {@code capacity} rate samples of one source, oldest first, immutable. To find a daily
 * pattern it must hold more than three days of samples at the policy interval (at 30 s: 8,640+).
 */
public record RateHistory(int capacity, List<RateSample> samples) {

    public RateHistory {
        Checks.positive(capacity, "rate history capacity");
        samples = List.copyOf(Checks.notNull(samples, "rate history samples"));
        if (samples.size() > capacity) {
            throw new PolicyException(
                    "rate history holds "
                            + samples.size()
                            + " samples, more than its capacity "
                            + capacity
                            + "; build it with append()");
        }
    }

    public static RateHistory empty(int capacity) {
        return new RateHistory(capacity, List.of());
    }

    /**
     * This history plus {@code sample}, dropping the oldest when full; samples must move forward in
     * time.
     */
    public RateHistory append(RateSample sample) {
        Checks.notNull(sample, "rate sample");
        if (!samples.isEmpty() && !sample.at().isAfter(samples.get(samples.size() - 1).at())) {
            throw new PolicyException(
                    "rate sample at "
                            + sample.at()
                            + " is not after the latest one at "
                            + samples.get(samples.size() - 1).at()
                            + "; append samples in time order");
        }
        List<RateSample> next =
                new ArrayList<>(
                        samples.subList(samples.size() == capacity ? 1 : 0, samples.size()));
        next.add(sample);
        return new RateHistory(capacity, next);
    }
}
