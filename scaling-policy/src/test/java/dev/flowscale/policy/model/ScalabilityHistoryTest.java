package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScalabilityHistoryTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static CapacityObservation at(int minute, int p, double c) {
        return new CapacityObservation(T0.plusSeconds(60L * minute), p, c);
    }

    @Test
    void recordsOneObservationPerOperatorThatProcessedRecords() {
        MetricsWindow w =
                MetricsWindow.of(
                        T0,
                        T0.plusSeconds(30),
                        List.of(
                                OperatorMetrics.of("map", 4, 400, 400, 200, 200),
                                OperatorMetrics.of("idle", 2, 0, 0, 0, 0)));

        ScalabilityHistory h = ScalabilityHistory.empty().record(w);

        assertThat(h.of("map"))
                .containsExactly(new CapacityObservation(T0.plusSeconds(30), 4, 400));
        assertThat(h.of("idle")).isEmpty();
    }

    @Test
    void keepsOnlyTheLatestObservationsAtEachParallelism() {
        ScalabilityHistory h = ScalabilityHistory.empty(2, 8);
        for (int minute = 0; minute < 4; minute++) {
            h = h.with("map", at(minute, 4, 400 + minute));
        }

        assertThat(h.of("map"))
                .extracting(CapacityObservation::capacity)
                .containsExactly(402.0, 403.0);
    }

    @Test
    void dropsTheLeastRecentlyObservedParallelismToKeepDiversity() {
        ScalabilityHistory h =
                ScalabilityHistory.empty(5, 2)
                        .with("map", at(0, 2, 200))
                        .with("map", at(1, 4, 400))
                        .with("map", at(2, 2, 210))
                        .with("map", at(3, 8, 800));

        // 4 was last seen at minute 1, 2 at minute 2: parallelism 4 goes.
        assertThat(h.parallelismsOf("map")).containsExactly(2, 8);
        assertThat(h.of("map"))
                .extracting(CapacityObservation::capacity)
                .containsExactly(200.0, 210.0, 800.0);
    }

    @Test
    void neverChangesTheHistoryItWasDerivedFrom() {
        ScalabilityHistory empty = ScalabilityHistory.empty();
        empty.with("map", at(0, 2, 200));

        assertThat(empty.of("map")).isEmpty();
    }

    @Test
    void rejectsABoundThatCannotHoldACurve() {
        assertThatThrownBy(() -> ScalabilityHistory.empty(5, 1))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("parallelisms is 1");
        assertThatThrownBy(() -> new CapacityObservation(T0, 2, 0))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("capacity > 0");
    }
}
