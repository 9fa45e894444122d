package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.window.WindowRates;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.runner.RunnerViews;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.policy.api.SourceMetrics;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A source that cannot tell its backlog (a Kafka reader before it knows its partitions' log ends)
 * is reported as having no signal at every step: the engine's gauges, the runner's metrics view,
 * the collector's counters and the policy's window; never as a backlog of 0.
 */
class NoLagSignalWindowTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void aSourceWithoutALagSignalIsReportedAsSuchFromTheEngineToThePolicysWindow()
            throws Exception {
        AtomicReference<Long> backlog = new AtomicReference<>(null);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobBuilder job = JobBuilder.named("no-signal");
        job.source("src", new Owing(backlog)).sink("sink", Sinks.counting());
        try (RunningJob running = job.start(JobConfig.defaults().withMeterRegistry(registry))) {
            AtomicReference<RunningJob> current = new AtomicReference<>(running);
            InProcessMetricsSource source =
                    new InProcessMetricsSource(current::get, Clock.systemUTC());
            Gauge signal =
                    Await.until(
                            TIMEOUT,
                            "the source's signal gauge",
                            () ->
                                    registry.find(MetricName.SOURCE_BACKLOG_SIGNAL.micrometer())
                                            .gauge(),
                            g -> g != null);
            assertThat(signal.value()).isZero();
            assertThat(registry.find(MetricName.SOURCE_BACKLOG.micrometer()).gauge().value())
                    .isNaN();
            assertThat(RunnerViews.metrics(running.metrics(), "r", 0).instances())
                    .filteredOn(i -> i.operatorId().equals("src"))
                    .singleElement()
                    .satisfies(i -> assertThat(i.backlog()).isNull());
            assertThat(sourceOfWindow(source).hasBacklogSignal()).isFalse();

            backlog.set(7L);
            // The source task reads its reader's backlog once per loop (every millisecond while
            // idle): a window sampled before that still has no signal (seen once in CI).
            SourceMetrics known =
                    Await.until(
                            TIMEOUT,
                            "a window with the backlog the source now knows",
                            () -> sourceOfWindow(source),
                            SourceMetrics::hasBacklogSignal);
            assertThat(known.backlogRecords()).isEqualTo(7);
            assertThat(signal.value()).isEqualTo(1);
        }
    }

    /** The source's metrics over a window between two samples a few milliseconds apart. */
    private static SourceMetrics sourceOfWindow(InProcessMetricsSource source) {
        MetricsSample from = source.sample();
        MetricsSample to =
                Await.until(
                        TIMEOUT,
                        "a later sample",
                        source::sample,
                        s -> s.time().isAfter(from.time()));
        return WindowRates.between(from, to)
                .window()
                .metrics("src")
                .orElseThrow()
                .source()
                .orElseThrow();
    }

    /** Emits nothing and owes what the test says. */
    private record Owing(AtomicReference<Long> backlog) implements SourceFunction<Long> {
        @Override
        public SourceReader<Long> createReader(RuntimeContext context) {
            return new SourceReader<>() {
                @Override
                public int poll(Collector<Long> out, int max) {
                    return 0;
                }

                @Override
                public Long backlog() {
                    return backlog.get();
                }
            };
        }
    }
}
