package dev.flowscale.operator.core;

import java.time.Duration;

/**
 * Durations as the spec writes them (30s, 5m): flowscale's one grammar ({@link
 * dev.flowscale.common.DurationText}), failing as the operator fails.
 */
public final class DurationText {

    private DurationText() {}

    /** The duration, or an exception naming the field and the expected format. */
    public static Duration parse(String field, String text) {
        return dev.flowscale.common.DurationText.parse(field, text, OperatorException::new);
    }
}
