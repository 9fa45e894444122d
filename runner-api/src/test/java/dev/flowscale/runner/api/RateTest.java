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
}
