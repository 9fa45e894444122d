package dev.flowscale.autoscaler.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.realizer.RescaleFailedException;
import dev.flowscale.testsupport.Ports;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP realizer's failure paths that need no runner process. */
class HttpRunnerScalingRealizerTest {
    private final RecordingRescaleListener listener = new RecordingRescaleListener();
    private final RunnerLauncher mustNotLaunch =
            new RunnerLauncher() {
                @Override
                public URI start(Map<String, Integer> parallelism, Path restoreFrom) {
                    throw new AssertionError("nothing may be launched");
                }

                @Override
                public void stop(URI runner) {
                    throw new AssertionError("nothing may be stopped");
                }
            };
    private final URI nobody = URI.create("http://127.0.0.1:" + Ports.free());
    private HttpRunnerScalingRealizer realizer;

    @AfterEach
    void close() throws Exception {
        realizer.close();
    }

    @Test
    void anUnreachableRunnerIsReportedAndNothingIsLaunched() {
        realizer =
                new HttpRunnerScalingRealizer(
                        nobody, mustNotLaunch, Duration.ofSeconds(5), listener);

        assertThatThrownBy(
                        () ->
                                realizer.realize(Decisions.scale("wc", "count", 1, 2))
                                        .toCompletableFuture()
                                        .get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RescaleFailedException.class)
                .hasMessageContaining("cannot read the job from runner " + nobody)
                .hasMessageContaining("nothing was changed");
        assertThat(listener.last().to()).isEqualTo(Map.of("count", 2));
        assertThat(realizer.runner()).isEqualTo(nobody);
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheOthersNorTheStage() {
        realizer =
                new HttpRunnerScalingRealizer(
                        nobody,
                        mustNotLaunch,
                        Duration.ofSeconds(5),
                        report -> {
                            throw new IllegalStateException("listener bug");
                        },
                        listener);

        assertThatThrownBy(
                        () ->
                                realizer.realize(Decisions.scale("wc", "count", 1, 2))
                                        .toCompletableFuture()
                                        .get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RescaleFailedException.class);
        assertThat(listener.reports()).hasSize(1);
    }

    @Test
    void aClosedRealizerRefusesDecisions() throws Exception {
        realizer =
                new HttpRunnerScalingRealizer(
                        nobody, mustNotLaunch, Duration.ofSeconds(5), listener);
        realizer.close();

        assertThatThrownBy(
                        () ->
                                realizer.realize(Decisions.scale("wc", "count", 1, 2))
                                        .toCompletableFuture()
                                        .get())
                .hasMessageContaining("closed");
        assertThat(realizer.inProgress()).isFalse();
    }
}
