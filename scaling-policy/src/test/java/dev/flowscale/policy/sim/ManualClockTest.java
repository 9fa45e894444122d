package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ManualClockTest {

    @Test
    void movesOnlyWhenAdvanced() {
        ManualClock clock = new ManualClock(Instant.EPOCH);

        clock.advance(Duration.ofSeconds(3));

        assertThat(clock.instant()).isEqualTo(Instant.EPOCH.plusSeconds(3));
        assertThat(clock.millis()).isEqualTo(3000);
    }

    @Test
    void refusesToGoBack() {
        assertThatThrownBy(() -> new ManualClock(Instant.EPOCH).advance(Duration.ofSeconds(-1)))
                .isInstanceOf(PolicyException.class);
    }
}
