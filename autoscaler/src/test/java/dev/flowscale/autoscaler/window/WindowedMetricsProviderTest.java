package dev.flowscale.autoscaler.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.autoscaler.testing.Samples;
import dev.flowscale.autoscaler.testing.TestingMetricsSource;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.AutoscalerLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WindowedMetricsProviderTest {
    private static final WindowSettings TEN_SECONDS =
            new WindowSettings(Duration.ofSeconds(10), Duration.ofSeconds(5));
    private final TestingMetricsSource source = new TestingMetricsSource();
    private final List<MetricsWindow> seen = new ArrayList<>();
    private final WindowedMetricsProvider provider =
            new WindowedMetricsProvider(
                    source, TEN_SECONDS, List.of((topology, window) -> seen.add(window)));

    @Test
    void ratesAreDifferencesOfCumulativeCountersNotAveragesOfRates() {
        pollAll(
                Samples.at(100).source(0, 0, 100, 0).map(0, 0, 0, 0, 100).map(1, 0, 0, 0, 100),
                Samples.at(105)
                        .source(1000, 1, 105, 0)
                        .map(0, 500, 1000, 1, 105)
                        .map(1, 500, 500, 0.5, 105),
                Samples.at(110)
                        .source(2000, 2.5, 110, 100)
                        .map(0, 1000, 2000, 4, 110)
                        .map(1, 1000, 1000, 1, 110));

        MetricsWindow window = provider.currentWindow().orElseThrow();
        assertThat(window.start()).isEqualTo(Samples.T0.plusSeconds(100));
        assertThat(window.end()).isEqualTo(Samples.T0.plusSeconds(110));
        OperatorMetrics map = window.metrics("map").orElseThrow();
        // instance 0: 1000 records in 4 s of useful time = 250/s (averaging the two 5 s rates would
        // give 333/s)
        assertThat(map.instances().get(0).trueProcessingRate()).isCloseTo(250, within(1e-9));
        assertThat(map.instances().get(1).trueProcessingRate()).isCloseTo(1000, within(1e-9));
        assertThat(map.trueProcessingRate()).isCloseTo(1250, within(1e-9));
        assertThat(map.trueOutputRate()).isCloseTo(2000 / 4.0 + 1000, within(1e-9));
        assertThat(map.observedProcessingRate()).isCloseTo(200, within(1e-9));
        assertThat(map.observedOutputRate()).isCloseTo(300, within(1e-9));
        assertThat(map.parallelism()).isEqualTo(2);
        assertThat(provider.status().complete()).isTrue();
        assertThat(seen).containsExactly(window);
    }

    @Test
    void aSourceOffersWhatItEmittedPlusWhatItsBacklogGrew() {
        pollAll(
                Samples.at(100).source(0, 0, 100, 50).map(0, 0, 0, 0, 100).map(1, 0, 0, 0, 100),
                Samples.at(110)
                        .source(2000, 2.5, 110, 150)
                        .map(0, 1, 1, 1, 110)
                        .map(1, 1, 1, 1, 110));

        OperatorMetrics src = provider.currentWindow().orElseThrow().metrics("src").orElseThrow();
        assertThat(src.trueProcessingRate()).isCloseTo(800, within(1e-9));
        assertThat(src.observedOutputRate()).isCloseTo(200, within(1e-9));
        assertThat(src.source().orElseThrow().offeredRate()).isCloseTo(210, within(1e-9));
        assertThat(src.source().orElseThrow().backlogRecords()).isEqualTo(150);
    }

    @Test
    void untilTheSamplesSpanAWholeWindowTheProviderIsCollecting() {
        pollAll(
                Samples.at(100).source(0, 0, 100, 0).map(0, 0, 0, 0, 100).map(1, 0, 0, 0, 100),
                Samples.at(105).source(10, 1, 105, 0).map(0, 5, 5, 1, 105).map(1, 5, 5, 1, 105));

        assertThat(provider.currentWindow()).isEmpty();
        assertThat(provider.status().complete()).isFalse();
        assertThat(provider.status().reasons())
                .singleElement()
                .asString()
                .contains("collecting: 5.0 s");
    }

    @Test
    void samplesTakenDuringWarmUpAreDropped() {
        pollAll(Samples.at(2).source(10, 1, 2, 0).map(0, 5, 5, 1, 2).map(1, 5, 5, 1, 2));
        assertThat(provider.status().reasons())
                .singleElement()
                .asString()
                .contains("warming up")
                .contains("2.0 s of the 5.0 s warm-up");

        pollAll(
                Samples.at(6).source(20, 1, 6, 0).map(0, 10, 10, 1, 6).map(1, 10, 10, 1, 6),
                Samples.at(16).source(120, 2, 16, 0).map(0, 60, 60, 2, 16).map(1, 60, 60, 2, 16));

        MetricsWindow window = provider.currentWindow().orElseThrow();
        assertThat(window.start()).isEqualTo(Samples.T0.plusSeconds(6));
        assertThat(window.metrics("map").orElseThrow().trueProcessingRate())
                .isCloseTo(100, within(1e-9));
    }

    @Test
    void countersGoingBackwardsMeanARestartAndNoWindowSpansIt() {
        pollAll(
                Samples.at(100).source(0, 0, 100, 0).map(0, 0, 0, 0, 100).map(1, 0, 0, 0, 100),
                Samples.at(110)
                        .source(1000, 1, 110, 0)
                        .map(0, 500, 500, 1, 110)
                        .map(1, 500, 500, 1, 110),
                Samples.at(120).source(80, 1, 8, 0).map(0, 40, 40, 1, 8).map(1, 40, 40, 1, 8));

        assertThat(provider.currentWindow()).isEmpty();
        assertThat(provider.status().reasons())
                .singleElement()
                .asString()
                .contains("went backwards")
                .contains("earlier samples dropped");

        pollAll(
                Samples.at(130)
                        .source(1080, 2, 18, 0)
                        .map(0, 540, 540, 3, 18)
                        .map(1, 540, 540, 3, 18));
        MetricsWindow window = provider.currentWindow().orElseThrow();
        assertThat(window.start()).isEqualTo(Samples.T0.plusSeconds(120));
        assertThat(window.metrics("map").orElseThrow().trueProcessingRate())
                .isCloseTo(500, within(1e-9));
    }

    @Test
    void aNewRunIdMeansARestartEvenWhenCountersKeepGrowing() {
        pollAll(
                Samples.at(100).source(0, 0, 100, 0).map(0, 0, 0, 0, 100).map(1, 0, 0, 0, 100),
                Samples.at(110)
                        .run("run-2")
                        .source(1000, 1, 110, 0)
                        .map(0, 500, 500, 1, 110)
                        .map(1, 500, 500, 1, 110));

        assertThat(provider.currentWindow()).isEmpty();
        assertThat(provider.status().reasons())
                .singleElement()
                .asString()
                .contains("run-1 -> run-2");
    }

    @Test
    void anInstanceThatDidNotReportLeavesItsOperatorOutAndDs2MakesNoDecision() {
        pollAll(
                Samples.at(100).source(0, 0, 100, 0).map(0, 0, 0, 0, 100).map(1, 0, 0, 0, 100),
                Samples.at(110).source(1000, 1, 110, 0).map(0, 500, 500, 1, 110));

        MetricsWindow window = provider.currentWindow().orElseThrow();
        assertThat(window.operators()).containsOnlyKeys("src");
        assertThat(provider.status().complete()).isFalse();
        assertThat(provider.status().reasons())
                .singleElement()
                .asString()
                .contains("operator 'map' instance 1 did not report");

        Ds2Policy policy =
                new Ds2Policy(PolicyConfig.exactDs2(), Clock.fixed(window.end(), ZoneOffset.UTC));
        ScalingDecision decision =
                policy.decide(provider.topology(), window, ScalingHistory.empty());
        assertThat(decision.isBlocked(BlockReason.METRICS_MISSING)).as(decision.explain()).isTrue();
        assertThat(decision.reasons()).singleElement().asString().contains("'map'");
    }

    @Test
    void whenTheSourceFailsThereIsNoWindowTheStatusSaysWhyAndTheAutoscalerBlocks() {
        source.then(
                        Samples.at(100)
                                .source(0, 0, 100, 0)
                                .map(0, 0, 0, 0, 100)
                                .map(1, 0, 0, 0, 100)
                                .build())
                .then(
                        Samples.at(110)
                                .source(1000, 1, 110, 0)
                                .map(0, 500, 500, 1, 110)
                                .map(1, 500, 500, 1, 110)
                                .build())
                .thenFail("connection refused");
        provider.poll();
        provider.poll();
        assertThat(provider.currentWindow()).isPresent();

        WindowStatus status = provider.poll();

        assertThat(provider.currentWindow()).isEmpty();
        assertThat(status.complete()).isFalse();
        assertThat(status.reasons())
                .singleElement()
                .asString()
                .isEqualTo("metrics source testing source failed: connection refused");
        assertThat(status.lastSample()).hasValue(Samples.T0.plusSeconds(110));
        Clock clock = Clock.fixed(Samples.T0.plusSeconds(111), ZoneOffset.UTC);
        AutoscalerLoop autoscaler =
                new AutoscalerLoop(
                        AutoscalerConfig.of(Mode.AUTO, Duration.ofSeconds(10)),
                        new Ds2Policy(PolicyConfig.exactDs2(), clock),
                        provider,
                        decision -> CompletableFuture.completedFuture(null),
                        List.of(),
                        clock,
                        Throwable::printStackTrace);
        ScalingDecision decision = autoscaler.tick().orElseThrow();
        assertThat(decision.isBlocked(BlockReason.METRICS_MISSING)).isTrue();
        assertThat(autoscaler.errorCount()).isZero();
    }

    @Test
    void topologyBeforeAnyPollTakesOneSample() {
        source.then(Samples.at(1).source(0, 0, 1, 0).map(0, 0, 0, 0, 1).map(1, 0, 0, 0, 1).build());

        assertThat(provider.topology()).isEqualTo(Samples.TOPOLOGY);
    }

    private void pollAll(Samples... samples) {
        for (Samples s : samples) {
            source.then(s.build());
            provider.poll();
        }
    }
}
