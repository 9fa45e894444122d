package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.InvalidJobException;
import java.time.Duration;

/**
 * What happens when a task fails: up to {@code maxAttempts} restarts of the whole job from its
 * latest completed checkpoint, each after {@code delay}.
 */
public record RestartStrategy(int maxAttempts, Duration delay) {

    public RestartStrategy {
        if (maxAttempts < 0) {
            throw new InvalidJobException(
                    "restart strategy: maxAttempts " + maxAttempts + " is negative; use >= 0");
        }
        if (delay == null || delay.isNegative()) {
            throw new InvalidJobException(
                    "restart strategy: delay " + delay + " is invalid; use >= 0");
        }
    }

    public static RestartStrategy none() {
        return new RestartStrategy(0, Duration.ZERO);
    }

    public static RestartStrategy fixedDelay(int attempts, Duration delay) {
        return new RestartStrategy(attempts, delay);
    }
}
