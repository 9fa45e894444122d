package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import java.time.Duration;

/**
 * What "settles" means after a load change (issue 12): at most {@code maxRescalesToSustain}
 * rescales reach a configuration that sustains the new rates, at most {@code maxTrims} more follow
 * it, no configuration is revisited before the next load change, the backlog drains within {@code
 * catchUp} plus one {@code policyInterval} of the last rescale (or of the load change), and the
 * final parallelism sustains the rates: exactly the minimum for linearly scaling operators, at most
 * one above it otherwise.
 *
 * @param backlogToleranceSeconds a backlog below this many seconds of the sources' input counts as
 *     drained (a fluid model at exactly its capacity keeps a residue)
 * @param reserve spare capacity, as a share of the rates, that the minimal final configuration
 *     keeps to drain one rescale's downtime within the catch-up time (0: the bare minimum that
 *     sustains the rates)
 * @param savingsHorizon a final configuration above the minimum is accepted (classified, not
 *     failed) when the trim to the minimum would not pay for its downtime: the instances it saves
 *     over this horizon do not exceed the running instances times one rescale's downtime, the cost
 *     test a policy applies before a trim (zero: never accepted)
 * @param warmUp how long after a restart the policy drops the metrics: with the interval and the
 *     downtime it bounds how long any policy may leave a job below its need ({@link
 *     #sustainSeconds})
 * @param prior the rescale downtime the policy was configured to expect: all it knows of the
 *     downtime until a rescale has been measured (zero: the real downtime, known from the start)
 */
public record SettlingCriteria(
        Duration catchUp,
        Duration policyInterval,
        int maxRescalesToSustain,
        int maxTrims,
        double backlogToleranceSeconds,
        double reserve,
        Duration savingsHorizon,
        Duration warmUp,
        Duration prior) {

    public SettlingCriteria {
        Checks.notNegative(prior, "settling criteria prior");
        Checks.notNegative(warmUp, "settling criteria warmUp");
        Checks.notNegative(catchUp, "settling criteria catchUp");
        Checks.notNegative(policyInterval, "settling criteria policyInterval");
        Checks.finiteNotNegative(
                backlogToleranceSeconds, "settling criteria backlogToleranceSeconds");
        Checks.finiteNotNegative(reserve, "settling criteria reserve");
        Checks.notNegative(savingsHorizon, "settling criteria savingsHorizon");
        if (maxRescalesToSustain < 0 || maxTrims < 0) {
            throw new PolicyException(
                    "settling criteria maxRescalesToSustain "
                            + maxRescalesToSustain
                            + " and maxTrims "
                            + maxTrims
                            + " must not be negative");
        }
    }

    /** Issue 12's bar: one rescale to sustain, one trim, a backlog under one second of input. */
    public static SettlingCriteria of(Duration catchUp, Duration policyInterval) {
        return builder(catchUp, policyInterval).build();
    }

    /**
     * Issue 12's bar, to be changed where a policy's settings ask for it before {@code build()}.
     */
    public static Builder builder(Duration catchUp, Duration policyInterval) {
        return new Builder(catchUp, policyInterval);
    }

    /** Builds a bar from issue 12's: the only place the record's fields are listed again. */
    public static final class Builder {
        private final Duration catchUp;
        private final Duration policyInterval;
        private int maxRescalesToSustain = 1;
        private int maxTrims = 1;
        private double backlogToleranceSeconds = 1.0;
        private double reserve;
        private Duration savingsHorizon = Duration.ZERO;
        private Duration warmUp = Duration.ZERO;
        private Duration prior = Duration.ZERO;

        private Builder(Duration catchUp, Duration policyInterval) {
            this.catchUp = catchUp;
            this.policyInterval = policyInterval;
        }

        /**
         * "Minimal" is the smallest configuration that can also drain the backlog of its own
         * rescale's {@code downtime} within the catch-up time: each operator sustains its rate
         * times 1 + downtime / catch-up. A configuration with less spare would be reached by a
         * rescale whose backlog never drains in time.
         */
        public Builder downtimeReserve(Duration downtime) {
            reserve = catchUp.isZero() ? 0 : downtime.toNanos() / (double) catchUp.toNanos();
            return this;
        }

        /**
         * A final configuration above the minimum that no trim paying for its downtime reaches is
         * accepted and classified (see {@code savingsHorizon}).
         */
        public Builder savingsHorizon(Duration horizon) {
            savingsHorizon = horizon;
            return this;
        }

        /** The bar for a policy that drops {@code length} of metrics after every restart. */
        public Builder warmUp(Duration length) {
            warmUp = length;
            return this;
        }

        /** The bar for a policy that expects a rescale downtime of {@code expected} at first. */
        public Builder prior(Duration expected) {
            prior = expected;
            return this;
        }

        public SettlingCriteria build() {
            return new SettlingCriteria(
                    catchUp,
                    policyInterval,
                    maxRescalesToSustain,
                    maxTrims,
                    backlogToleranceSeconds,
                    reserve,
                    savingsHorizon,
                    warmUp,
                    prior);
        }
    }

    /**
     * Whether a policy that has measured no rescale plans a downtime other than the real one: its
     * prior differs from it by more than a tenth (a policy treats closer figures as the same load).
     */
    boolean priorOff() {
        double prior = prior().toNanos() / 1e9;
        double real = downtimeSeconds();
        return !prior().isZero() && Math.abs(prior - real) > 0.1 * Math.max(prior, real);
    }

    /** Whether the prior is off the real downtime ({@link #priorOff}) and below it. */
    boolean priorBelowReal() {
        return priorOff() && prior().toNanos() / 1e9 < downtimeSeconds();
    }

    /** The downtime a policy plans with: the prior until a rescale has been measured. */
    double plannedDowntimeSeconds(boolean measured) {
        return measured || prior().isZero() ? downtimeSeconds() : prior().toNanos() / 1e9;
    }

    /** The rescale downtime the reserve was set for. */
    double downtimeSeconds() {
        return reserve * catchUp.toNanos() / 1e9;
    }

    /**
     * How long after a load change a job may run below its need: a rescale in flight at the change
     * ends within one downtime, the warm-up after it passes, one window sees the need and one more
     * confirms it, and the rescale that follows takes one downtime; one interval more is allowed
     * (the "no longer than two policy intervals" beyond what a reactive policy must take).
     *
     * @param downtime the rescale downtime the job really had, in seconds
     */
    long sustainSeconds(double downtime) {
        return Math.round(2 * downtime + warmUp.toSeconds() + 3 * policyInterval.toSeconds());
    }

    /** How long after its reference point a backlog must have drained. */
    long drainSeconds() {
        return catchUp.plus(policyInterval).toSeconds();
    }
}
