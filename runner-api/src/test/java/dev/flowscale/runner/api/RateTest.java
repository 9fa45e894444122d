package dev.flowscale.runner.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class RateTest {

    @Test
    void aRateIsTheCountOverTheTime() {
        assertThat(Rate.perSecond(300, 1.5)).hasValue(200);
        assertThat(Rate.perSecond(0, 2)).hasValue(0);
    }

    @Test
    void aWindowInWhichNoTimePassedHasNoRateEvenWithoutRecords() {
        assertThat(Rate.perSecond(0, 0)).isEmpty();
        assertThat(Rate.perSecond(5, 0)).isEmpty();
        assertThat(Rate.perSecond(5, -1e-9)).isEmpty();
        assertThat(Rate.perSecond(5, Double.NaN)).isEmpty();
    }

    @Test
    void noRateIsAGapInAGaugeNothingInASumAndNoMeasuredCapacityForThePolicy() {
        OptionalDouble none = OptionalDouble.empty();
        assertThat(Rate.gauge(none)).isNaN();
        assertThat(Rate.measured(none)).isZero();
        assertThat(Rate.plus(OptionalDouble.of(2), none)).hasValue(2);
        assertThat(Rate.plus(none, OptionalDouble.of(3))).hasValue(3);
        assertThat(Rate.plus(OptionalDouble.of(2), OptionalDouble.of(3))).hasValue(5);
        assertThat(Rate.plus(none, none)).isEmpty();
        assertThat(Rate.ofGauge(Rate.gauge(none))).isEmpty();
        assertThat(Rate.ofGauge(Rate.gauge(OptionalDouble.of(4)))).hasValue(4);
    }

    @Test
    void ds2TrueRatesDivideByUsefulTimeAndObservedRatesByTheWindow() {
        Ds2Rates rates = Ds2Rates.of(100, 400, 2, 4);

        assertThat(rates.trueProcessing()).hasValue(50);
        assertThat(rates.trueOutput()).hasValue(200);
        assertThat(rates.observedProcessing()).hasValue(25);
        assertThat(rates.observedOutput()).hasValue(100);
    }

    @Test
    void anInstanceThatDidNoUsefulWorkHasNoTrueRatesButItsObservedRatesAreZero() {
        Ds2Rates idle = Ds2Rates.of(0, 0, 0, 4);

        assertThat(idle.trueProcessing()).isEmpty();
        assertThat(idle.trueOutput()).isEmpty();
        assertThat(idle.observedProcessing()).hasValue(0);
        assertThat(idle.observedOutput()).hasValue(0);
    }
}
