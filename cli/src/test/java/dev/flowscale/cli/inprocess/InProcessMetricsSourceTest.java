package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.metrics.CollectorException;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.testing.MetricsSourceContract;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowStatus;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract against a job running in this JVM, plus what a rescale (a new RunningJob) does. */
public class InProcessMetricsSourceTest extends MetricsSourceContract {
    private final AtomicReference<RunningJob> job = new AtomicReference<>();
    private InProcessMetricsSource source;

    public static JobBuilder chain(String name) {
        JobBuilder builder = JobBuilder.named(name);
        builder.source("source", Sources.generator(RateProfile.constant(RATE), seq -> seq))
                .map("map1", x -> x + 1)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        return builder;
    }

    @BeforeAll
    void startJob() {
        job.set(chain("inproc").start(JobConfig.defaults()));
        source = new InProcessMetricsSource(job::get, Clock.systemUTC());
    }

    @AfterAll
    void stopJob() throws Exception {
        job.get().close();
    }

    @Override
    protected MetricsSource source() {
        return source;
    }

    @Test
    void aReplacedJobStartsANewRunAndTheProviderDropsTheOldSamples() throws Exception {
        AtomicReference<RunningJob> replaced =
                new AtomicReference<>(chain("replaced").start(JobConfig.defaults()));
        InProcessMetricsSource replacing =
                new InProcessMetricsSource(replaced::get, Clock.systemUTC());
        WindowedMetricsProvider provider =
                new WindowedMetricsProvider(
                        replacing,
                        new WindowSettings(Duration.ofSeconds(30), Duration.ZERO),
                        List.of());
        String firstRun = replacing.sample().runId();
        provider.poll();
        RunningJob old = replaced.getAndSet(chain("replaced").start(JobConfig.defaults()));
        old.close();
        WindowStatus status = provider.poll();

        assertThat(replacing.sample().runId()).isNotEqualTo(firstRun);
        assertThat(status.reasons())
                .anySatisfy(r -> assertThat(r).contains("the job restarted (run " + firstRun));
        replaced.get().close();
    }

    @Test
    void anInPlaceRescaleStartsANewRunWithTheNewParallelism(@TempDir Path savepoints)
            throws Exception {
        try (RunningJob rescaled =
                chain("rescaled")
                        .start(
                                JobConfig.defaults()
                                        .withCheckpointing(
                                                CheckpointConfig.savepointsOnly(savepoints)))) {
            InProcessMetricsSource inPlace =
                    new InProcessMetricsSource(() -> rescaled, Clock.systemUTC());
            WindowedMetricsProvider provider =
                    new WindowedMetricsProvider(
                            inPlace,
                            new WindowSettings(Duration.ofSeconds(30), Duration.ZERO),
                            List.of());
            String before =
                    provider.poll().lastSample().map(t -> inPlace.sample().runId()).orElseThrow();

            rescaled.rescale(Map.of("map1", 3), Duration.ofSeconds(20));
            WindowStatus status = provider.poll();

            MetricsSample after = inPlace.sample();
            assertThat(after.runId()).isNotEqualTo(before);
            assertThat(after.topology().parallelism()).containsEntry("map1", 3);
            assertThat(after.instancesOf("map1")).hasSize(3);
            assertThat(status.reasons())
                    .anySatisfy(r -> assertThat(r).contains("the job restarted"));
        }
    }

    @Test
    void aCancelledJobIsReportedInsteadOfSampled() throws Exception {
        RunningJob cancelled = chain("cancelled").start(JobConfig.defaults());
        cancelled.cancel();
        cancelled.close();

        assertThatThrownBy(
                        () ->
                                new InProcessMetricsSource(() -> cancelled, Clock.systemUTC())
                                        .sample())
                .isInstanceOf(CollectorException.class)
                .hasMessageContaining("job 'cancelled' is CANCELLED");
    }
}
