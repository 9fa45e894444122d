package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LearnedHistoryTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final JobTopology JOB =
            new JobTopology(
                    "job",
                    List.of(OperatorSpec.of("src", 1), OperatorSpec.of("map", 2)),
                    List.of(new Edge("src", "map")));

    private static MetricsWindow window(int endSecond, double offered) {
        return MetricsWindow.of(
                T0.plusSeconds(endSecond - 30L),
                T0.plusSeconds(endSecond),
                List.of(
                        OperatorMetrics.of("src", 1, 5000, 5000, offered, offered)
                                .withSource(offered, 0),
                        OperatorMetrics.of("map", 2, 800, 800, offered, offered)));
    }

    @Test
    void recordsCapacitiesAndOfferedRatesOfEveryWindow() {
        LearnedHistory h =
                LearnedHistory.empty().record(JOB, window(30, 300)).record(JOB, window(60, 320));

        assertThat(h.ratesOf("src").samples())
                .containsExactly(
                        new RateSample(T0.plusSeconds(30), 300),
                        new RateSample(T0.plusSeconds(60), 320));
        assertThat(h.scalability().of("map"))
                .extracting(CapacityObservation::capacity)
                .containsExactly(800.0, 800.0);
        assertThat(h.ratesOf("map").samples()).isEmpty();
        assertThat(h.modelOf("map"))
                .map(ScalabilityModel::kind)
                .hasValue(ScalabilityModel.Kind.LINEAR);
        assertThat(h.modelOf("nothing")).isEmpty();
    }

    @Test
    void addsNothingForAWindowSeenTwice() {
        LearnedHistory h =
                LearnedHistory.empty().record(JOB, window(30, 300)).record(JOB, window(30, 300));

        assertThat(h.ratesOf("src").samples()).hasSize(1);
        assertThat(h.scalability().of("map")).hasSize(1);
    }
}
