package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.Ds2Rates;
import dev.flowscale.runner.api.Rate;

/**
 * DS2's four rates of an instance or an operator over a window, read as the runner's gauges show
 * them: records per second, NaN where there is no rate ({@link Rate#gauge}).
 */
public interface RateGauges {

    /** The rates themselves; empty where the window had no time to divide by. */
    Ds2Rates rates();

    /** λp: records in per second of useful time. */
    default double trueProcessingRate() {
        return Rate.gauge(rates().trueProcessing());
    }

    /** λo: records out per second of useful time. */
    default double trueOutputRate() {
        return Rate.gauge(rates().trueOutput());
    }

    /** Records in per second of observed time. */
    default double observedProcessingRate() {
        return Rate.gauge(rates().observedProcessing());
    }

    /** Records out per second of observed time. */
    default double observedOutputRate() {
        return Rate.gauge(rates().observedOutput());
    }
}
