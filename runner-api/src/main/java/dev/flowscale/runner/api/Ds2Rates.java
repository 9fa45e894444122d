package dev.flowscale.runner.api;

import java.util.OptionalDouble;

/**
 * DS2's four rates of one operator instance over a window (DESIGN.md "Definitions", DS2 §3.2), from
 * the differences of its cumulative counters over the window: true rates divide by the useful time
 * Wu, observed rates by the observed time W. The one place these rates are computed, for the
 * runner's gauges (engine) and for the policy's window (collector); a rate whose time is 0 is empty
 * ({@link Rate}). An operator's rates are the sums over its instances ({@link #plus}).
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

    /** No rate at all: the sum over no instances, and what {@link #plus} starts from. */
    public static final Ds2Rates NONE =
            new Ds2Rates(
                    OptionalDouble.empty(),
                    OptionalDouble.empty(),
                    OptionalDouble.empty(),
                    OptionalDouble.empty());

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

    /**
     * The sum of two instances' rates, rate by rate ({@link Rate#plus}: a missing rate adds
     * nothing).
     */
    public Ds2Rates plus(Ds2Rates other) {
        return new Ds2Rates(
                Rate.plus(trueProcessing, other.trueProcessing),
                Rate.plus(trueOutput, other.trueOutput),
                Rate.plus(observedProcessing, other.observedProcessing),
                Rate.plus(observedOutput, other.observedOutput));
    }
}
