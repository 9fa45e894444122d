package dev.flowscale.autoscaler.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyGroupRatesTest {

    private static InstanceCounts keyed(
            int instance, double observedSeconds, int first, long... counts) {
        long observed = Counters.nanos(observedSeconds);
        return new InstanceCounts(
                "keyed", instance, 0, observed, 0, 0, 0, observed, 0, 0L, false, first, counts,
                null, null);
    }

    @Test
    void eachKeyGroupsRateIsItsCountsDifferenceOverItsInstancesObservedTime() {
        List<Double> rates =
                KeyGroupRates.between(
                        List.of(keyed(0, 10, 0, 5, 5), keyed(1, 10, 2, 0, 0)),
                        List.of(keyed(0, 12, 0, 25, 7), keyed(1, 14, 2, 400, 0)),
                        4);

        assertThat(rates).containsExactly(10.0, 1.0, 100.0, 0.0);
    }

    @Test
    void instancesThatCountNoKeyGroupsGiveNoRates() {
        InstanceCounts plain = Counters.ofSeconds("map", 0, 10, 10, 1, 0, 0, 0, false);

        assertThat(KeyGroupRates.between(List.of(plain), List.of(plain), 4)).isEmpty();
    }

    @Test
    void keyGroupsLeftUncoveredGiveNoRatesRatherThanZeros() {
        assertThat(
                        KeyGroupRates.between(
                                List.of(keyed(0, 1, 0, 1, 1)), List.of(keyed(0, 2, 0, 3, 3)), 4))
                .isEmpty();
    }

    @Test
    void aRangeThatMovedWithinTheWindowGivesNoRates() {
        assertThat(
                        KeyGroupRates.between(
                                List.of(keyed(0, 1, 0, 1, 1)), List.of(keyed(0, 2, 1, 3, 3)), 3))
                .isEmpty();
        assertThat(
                        KeyGroupRates.between(
                                List.of(keyed(0, 1, 0, 1, 1)), List.of(keyed(0, 2, 1, 3, 3)), 2))
                .isEmpty();
    }
}
