package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.Ds2Rates;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.runner.api.Rate;

/**
 * DS2 rates of one instance over the window between two snapshots ({@link Ds2Rates}: true rates
 * divide by useful time Wu, observed rates by the observed time W). A rate whose time is 0 does not
 * exist ({@link Rate}) and reads as NaN here, as the runner's gauges show it.
 *
 * @param backlog the later reading's, as the counter record holds it: null while the source has no
 *     backlog signal
 */
public record InstanceRates(
        String operatorId,
        int instance,
        double windowSeconds,
        double usefulSeconds,
        Ds2Rates rates,
        double waitInputRatio,
        double backpressureRatio,
        Long backlog)
        implements RateGauges {

    public static InstanceRates between(InstanceCounts earlier, InstanceCounts later) {
        double w = (later.observedNanos() - earlier.observedNanos()) / 1e9;
        double wu = (later.usefulNanos() - earlier.usefulNanos()) / 1e9;
        return new InstanceRates(
                later.operatorId(),
                later.instance(),
                w,
                wu,
                Ds2Rates.of(
                        later.recordsIn() - earlier.recordsIn(),
                        later.recordsOut() - earlier.recordsOut(),
                        wu,
                        w),
                divide((later.waitInputNanos() - earlier.waitInputNanos()) / 1e9, w),
                divide((later.backpressureNanos() - earlier.backpressureNanos()) / 1e9, w),
                later.backlog());
    }

    /** Useful time over observed time: how busy the instance was. */
    public double utilization() {
        return divide(usefulSeconds, windowSeconds);
    }

    private static double divide(double a, double b) {
        return Rate.gauge(Rate.perSecond(a, b));
    }
}
