package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.Checks;
import java.time.Duration;

/**
 * What "settles" means after a load change (issue 12): at most {@code maxRescalesToSustain}
 * rescales reach a configuration that sustains the new rates, at most {@code maxTrims} more follow
 * it, no configuration is revisited before the next load change, the backlog drains within
 * {@code catchUp} plus one {@code policyInterval} of the last rescale (or of the load change),
 * and the final parallelism sustains the rates: exactly the minimum for linearly scaling
 * operators, at most one above it otherwise.
 *
 * @param backlogToleranceSeconds a backlog below this many seconds of the sources' input counts
 *                                as drained (a fluid model at exactly its capacity keeps a residue)
 */
public record SettlingCriteria(Duration catchUp, Duration policyInterval, int maxRescalesToSustain, int maxTrims,
        double backlogToleranceSeconds) {

    public SettlingCriteria {
        Checks.notNegative(catchUp, "settling criteria catchUp");
        Checks.notNegative(policyInterval, "settling criteria policyInterval");
        Checks.finiteNotNegative(backlogToleranceSeconds, "settling criteria backlogToleranceSeconds");
        if (maxRescalesToSustain < 0 || maxTrims < 0) {
            throw new dev.flowscale.policy.PolicyException("settling criteria maxRescalesToSustain "
                    + maxRescalesToSustain + " and maxTrims " + maxTrims + " must not be negative");
        }
    }

    /** Issue 12's bar: one rescale to sustain, one trim, a backlog under one second of input. */
    public static SettlingCriteria of(Duration catchUp, Duration policyInterval) {
        return new SettlingCriteria(catchUp, policyInterval, 1, 1, 1.0);
    }

    /** How long after its reference point a backlog must have drained. */
    long drainSeconds() {
        return catchUp.plus(policyInterval).toSeconds();
    }
}
