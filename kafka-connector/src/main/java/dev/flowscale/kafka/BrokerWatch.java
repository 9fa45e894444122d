package dev.flowscale.kafka;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether a reader's request to its brokers has gone unanswered too long for the lag it knows to
 * count. The reader's thread marks a request's start and end; the metrics thread asks.
 */
final class BrokerWatch {
    private final Clock clock;
    private final Duration patience;

    /** When the outstanding request began; null when none is. */
    private volatile Instant askingSince;

    BrokerWatch(Clock clock, Duration patience) {
        this.clock = clock;
        this.patience = patience;
    }

    void asking() {
        askingSince = clock.instant();
    }

    void answered() {
        askingSince = null;
    }

    /** Whether a request has been outstanding for the patience or longer. */
    boolean silent() {
        Instant since = askingSince;
        return since != null && Duration.between(since, clock.instant()).compareTo(patience) >= 0;
    }
}
