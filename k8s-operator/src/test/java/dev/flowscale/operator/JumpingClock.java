package dev.flowscale.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock moved forward by the jumps a test makes: durations the operator measures (a
 * downtime) stay real, and a timeout passes when the test jumps past it, once the condition it
 * waits for holds, however slowly a loaded machine got there. Thread-safe.
 */
final class JumpingClock extends Clock {
    private volatile Duration ahead = Duration.ZERO;

    /** Moves the clock forward by {@code step}; a negative step is rejected. */
    synchronized void jump(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("clock jump " + step + " is negative");
        }
        ahead = ahead.plus(step);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(ahead);
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
