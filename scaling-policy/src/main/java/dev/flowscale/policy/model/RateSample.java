package dev.flowscale.policy.model;

import dev.flowscale.policy.api.Checks;
import java.time.Instant;

/** A source's offered rate (records per second) over the metrics window ending at {@code at}. */
public record RateSample(Instant at, double rate) {

    public RateSample {
        Checks.notNull(at, "rate sample time");
        Checks.finiteNotNegative(rate, "rate sample at " + at);
    }
}
