package dev.flowscale.autoscaler.window;

import dev.flowscale.autoscaler.metrics.CollectorException;
import java.time.Duration;

/**
 * How windows are built.
 *
 * @param length the shortest span between the two samples a window is measured between; rates are
 *     differences of cumulative counters over it
 * @param warmUp samples taken while an instance has run for less than this are dropped, so the
 *     start-up after a (re)start or rescale never enters a window
 */
public record WindowSettings(Duration length, Duration warmUp) {

    public WindowSettings {
        if (length == null || length.isNegative() || length.isZero()) {
            throw new CollectorException(
                    "window length is " + length + "; use a positive duration, e.g. PT30S");
        }
        if (warmUp == null || warmUp.isNegative()) {
            throw new CollectorException(
                    "window warmUp is " + warmUp + "; use zero or a positive duration");
        }
    }
}
