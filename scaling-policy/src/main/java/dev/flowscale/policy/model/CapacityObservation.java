package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import java.time.Instant;

/**
 * One measurement of an operator's aggregate true processing rate (records per second of useful
 * time, summed over its instances) while it ran at {@code parallelism}.
 *
 * @param at end of the metrics window it was measured over
 */
public record CapacityObservation(Instant at, int parallelism, double capacity) {

    public CapacityObservation {
        Checks.notNull(at, "capacity observation time");
        Checks.positive(parallelism, "capacity observation parallelism");
        if (!(Double.isFinite(capacity) && capacity > 0)) {
            throw new PolicyException(
                    "capacity observation at "
                            + at
                            + " has capacity "
                            + capacity
                            + "; record only windows in which the operator processed records (capacity > 0)");
        }
    }
}
