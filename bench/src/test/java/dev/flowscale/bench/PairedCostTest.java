package dev.flowscale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairedCostTest {

    @Test
    void aSteadyCostIsFoundWithANarrowIntervalAroundIt() {
        List<Double> off = new ArrayList<>();
        List<Double> on = new ArrayList<>();
        for (int round = 0; round < 30; round++) {
            double drift = 100 + 20 * Math.sin(round);
            off.add(drift);
            on.add(drift * (1.005 + 0.001 * (round % 3 - 1)));
        }

        PairedCost cost = PairedCost.of(on, off);

        assertThat(cost.median().value())
                .isCloseTo(0.005, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(cost.median().low()).isGreaterThanOrEqualTo(0.004 - 1e-9);
        assertThat(cost.median().high()).isLessThanOrEqualTo(0.006 + 1e-9);
        assertThat(cost.mean().low()).isLessThanOrEqualTo(cost.mean().value());
        assertThat(cost.mean().high()).isGreaterThanOrEqualTo(cost.mean().value());
        assertThat(cost.rounds()).isEqualTo(30);
    }

    @Test
    void oneOutlyingRoundWidensTheMeansIntervalMoreThanTheMedians() {
        List<Double> off = new ArrayList<>();
        List<Double> on = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            off.add(100.0);
            on.add(round == 7 ? 130.0 : 100.0 + round % 2);
        }

        PairedCost cost = PairedCost.of(on, off);

        double meanWidth = cost.mean().high() - cost.mean().low();
        double medianWidth = cost.median().high() - cost.median().low();
        assertThat(medianWidth).isLessThan(meanWidth);
        assertThat(cost.median().high()).isLessThanOrEqualTo(0.01);
    }

    @Test
    void roundsMustPair() {
        assertThatThrownBy(() -> PairedCost.of(List.of(1.0, 2.0), List.of(1.0)))
                .hasMessageContaining("got 2 and 1");
    }
}
