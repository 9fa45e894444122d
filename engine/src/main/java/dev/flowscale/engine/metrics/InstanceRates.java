package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.Ds2Rates;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.runner.api.Rate;

/**
 * DS2 rates of one instance over the window between two snapshots ({@link Ds2Rates}: true rates
 * divide by useful time Wu, observed rates by the observed time W). A rate whose time is 0 does not
 * exist ({@link Rate}) and is NaN here, as the runner's gauges show it. The backlog is the later
 * reading's, with the counter record's {@code backlogUnknown}.
 */
public record InstanceRates(
        String operatorId,
        int instance,
        double windowSeconds,
        double usefulSeconds,
        double trueProcessingRate,
        double trueOutputRate,
        double observedProcessingRate,
        double observedOutputRate,
        double waitInputRatio,
        double backpressureRatio,
        long backlog,
        boolean backlogUnknown) {

    public static InstanceRates between(InstanceCounts earlier, InstanceCounts later) {
        double w = (later.observedNanos() - earlier.observedNanos()) / 1e9;
        double wu = (later.usefulNanos() - earlier.usefulNanos()) / 1e9;
        Ds2Rates rates =
                Ds2Rates.of(
                        later.recordsIn() - earlier.recordsIn(),
                        later.recordsOut() - earlier.recordsOut(),
                        wu,
                        w);
        return new InstanceRates(
                later.operatorId(),
                later.instance(),
                w,
                wu,
                Rate.gauge(rates.trueProcessing()),
                Rate.gauge(rates.trueOutput()),
                Rate.gauge(rates.observedProcessing()),
                Rate.gauge(rates.observedOutput()),
                divide((later.waitInputNanos() - earlier.waitInputNanos()) / 1e9, w),
                divide((later.backpressureNanos() - earlier.backpressureNanos()) / 1e9, w),
                later.backlog(),
                later.backlogUnknown());
    }

    /** Useful time over observed time: how busy the instance was. */
    public double utilization() {
        return divide(usefulSeconds, windowSeconds);
    }

    private static double divide(double a, double b) {
        return Rate.gauge(Rate.perSecond(a, b));
    }
}
