package dev.flowscale.runner.api;

import java.util.OptionalDouble;

/**
 * DS2's four rates of one operator instance over a window (DESIGN.md "Definitions", DS2 §3.2), from
 * the differences of its cumulative counters over the window: true rates divide by the useful time
 * Wu, observed rates by the observed time W. The one place these rates are computed, for the
 * runner's gauges (engine) and for the policy's window (collector); a rate whose time is 0 is empty
 * ({@link Rate}).
 *
 * @param trueProcessing λp = records in / Wu
 * @param trueOutput λo = records out / Wu
 * @param observedProcessing records in / W
 * @param observedOutput records out / W
 */
public record Ds2Rates(
        OptionalDouble trueProcessing,
        OptionalDouble trueOutput,
        OptionalDouble observedProcessing,
        OptionalDouble observedOutput) {

    /**
     * @param recordsIn records processed in the window (a source: emitted)
     * @param recordsOut records emitted in the window
     * @param usefulSeconds useful time Wu in the window
     * @param observedSeconds the window's length W as the instance lived it
     */
    public static Ds2Rates of(
            double recordsIn, double recordsOut, double usefulSeconds, double observedSeconds) {
        return new Ds2Rates(
                Rate.perSecond(recordsIn, usefulSeconds),
                Rate.perSecond(recordsOut, usefulSeconds),
                Rate.perSecond(recordsIn, observedSeconds),
                Rate.perSecond(recordsOut, observedSeconds));
    }
}
