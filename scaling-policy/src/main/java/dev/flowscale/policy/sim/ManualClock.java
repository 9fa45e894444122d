package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told to: for simulations and tests. Thread-safe. */
public final class ManualClock extends Clock {

    private volatile Instant now;

    public ManualClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock forward; a negative step is rejected. */
    public synchronized void advance(Duration step) {
        if (step.isNegative()) {
            throw new PolicyException(
                    "clock step " + step + " is negative; time only moves forward");
        }
        now = now.plus(step);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
