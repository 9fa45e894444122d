package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class BrokerWatchTest {

    @Test
    void aRequestOutstandingForThePatienceMakesTheBrokersSilentUntilItIsAnswered() {
        SteppedClock clock = new SteppedClock();
        BrokerWatch watch = new BrokerWatch(clock, Duration.ofSeconds(2));
        assertThat(watch.silent()).as("nothing asked").isFalse();

        watch.asking();
        clock.step(Duration.ofMillis(1999));
        assertThat(watch.silent()).as("within patience").isFalse();
        clock.step(Duration.ofMillis(1));
        assertThat(watch.silent()).isTrue();

        watch.answered();
        assertThat(watch.silent()).isFalse();
    }

    /** A clock the test moves by hand. */
    static final class SteppedClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void step(Duration by) {
            now = now.plus(by);
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
}
