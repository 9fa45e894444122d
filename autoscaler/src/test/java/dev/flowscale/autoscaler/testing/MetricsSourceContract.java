package dev.flowscale.autoscaler.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link MetricsSource} must do against a real running job: src (p=1) -> map1 (p=2) ->
 * sink (p=1), source at a fixed rate. Implementations start the job once per class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class MetricsSourceContract {
    public static final Map<String, Integer> PARALLELISM =
            Map.of("source", 1, "map1", 2, "sink", 1);
    public static final int RATE = 2000;

    /** A source reading the running job, ready to sample. */
    protected abstract MetricsSource source();

    /** Window length for the provider test: long enough for the source to see fresh counters. */
    protected Duration windowLength() {
        return Duration.ofMillis(800);
    }

    @Test
    public void aSampleHoldsTheTopologyAndEveryInstanceOfIt() {
        MetricsSample sample = source().sample();

        assertThat(sample.topology().parallelism()).isEqualTo(PARALLELISM);
        assertThat(sample.topology().edges()).hasSize(2);
        assertThat(sample.topology().sources()).containsExactly("source");
        assertThat(sample.instances())
                .extracting(i -> i.operatorId() + "/" + i.instance())
                .containsExactlyInAnyOrder("source/0", "map1/0", "map1/1", "sink/0");
        assertThat(sample.runId()).isNotBlank();
    }

    @Test
    public void countersAreCumulativeWithinOneRun() {
        MetricsSample first = source().sample();
        MetricsSample later =
                Await.value(
                        Duration.ofSeconds(20),
                        "the sink's records in to grow",
                        () -> {
                            MetricsSample s = source().sample();
                            return sinkIn(s) > sinkIn(first) ? Optional.of(s) : Optional.empty();
                        });

        assertThat(later.runId()).isEqualTo(first.runId());
        assertThat(later.time()).isAfter(first.time());
        for (InstanceCounts c : later.instances()) {
            InstanceCounts before = first.instance(c.operatorId(), c.instance()).orElseThrow();
            assertThat(Counters.wentBackwards(c, before))
                    .as(c.operatorId() + "/" + c.instance())
                    .isFalse();
            assertThat(c.usefulNanos()).isLessThanOrEqualTo(c.observedNanos() + 1000);
        }
    }

    @Test
    public void theWindowedProviderBuildsACompleteWindowWithDs2Rates() {
        WindowedMetricsProvider provider =
                new WindowedMetricsProvider(
                        source(), new WindowSettings(windowLength(), Duration.ZERO), List.of());
        MetricsWindow window =
                Await.value(
                        Duration.ofSeconds(30),
                        "a complete window, last status " + provider.status(),
                        () ->
                                provider.poll().complete()
                                        ? provider.currentWindow()
                                        : Optional.empty());

        assertThat(window.operators()).containsOnlyKeys("source", "map1", "sink");
        OperatorMetrics map = window.metrics("map1").orElseThrow();
        assertThat(map.instances()).hasSize(2);
        assertThat(map.trueProcessingRate())
                .isGreaterThanOrEqualTo(map.observedProcessingRate())
                .isPositive();
        OperatorMetrics source = window.metrics("source").orElseThrow();
        assertThat(source.source()).isPresent();
        assertThat(source.source().orElseThrow().offeredRate()).isBetween(RATE * 0.5, RATE * 1.5);
    }

    private static long sinkIn(MetricsSample s) {
        return s.instance("sink", 0).map(InstanceCounts::recordsIn).orElse(0L);
    }
}
