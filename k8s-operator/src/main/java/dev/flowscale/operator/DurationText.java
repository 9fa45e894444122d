package dev.flowscale.operator;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;

/**
 * Durations as the spec writes them (30s, 5m): the settings table's one grammar
 * ({@link dev.flowscale.policy.settings.DurationText}), failing as the operator fails.
 */
final class DurationText {

    private DurationText() {
    }

    /** The duration, or an exception naming the field and the expected format. */
    static Duration parse(String field, String text) {
        try {
            return dev.flowscale.policy.settings.DurationText.parse(field, text);
        } catch (PolicyException e) {
            throw new OperatorException(e.getMessage());
        }
    }
}
