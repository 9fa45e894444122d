package dev.flowscale.bench;

import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;

/**
 * The workloads on the embedded engine at parallelism 1, chained as the engine plans it: a source
 * heads a chain with its forward followers, so map→filter runs source, map, filter and sink on one
 * thread, and the word count its source and split on one and its count and sink on another.
 */
final class FlowscaleJobs {
    private FlowscaleJobs() {}

    static void run(Workload workload, long size, boolean instrumented)
            throws InterruptedException {
        JobBuilder job = workload == Workload.WORDCOUNT ? wordCount(size) : mapFilter(size);
        RunningJob running = job.start(JobConfig.defaults().withInstrumentation(instrumented));
        running.await();
    }

    /**
     * Instrumented, with meters in a Prometheus registry as the runner has them, and latency
     * markers every {@code markers} (zero: none).
     */
    static void runMetered(Workload workload, long size, Duration markers)
            throws InterruptedException {
        JobBuilder job = workload == Workload.WORDCOUNT ? wordCount(size) : mapFilter(size);
        JobConfig config =
                JobConfig.defaults()
                        .withMeterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                        .withLatencyTracking(markers);
        job.start(config).await();
    }

    private static JobBuilder wordCount(long sentences) {
        SentenceGenerator generator = Workload.sentences();
        return WordCount.build(
                "wordcount", Sources.generator(sentences, generator::sentence), meteredSink());
    }

    private static JobBuilder mapFilter(long records) {
        JobBuilder job = JobBuilder.named("mapfilter");
        job.source("source", Sources.sequence(records))
                .map("map", (Long x) -> x + 1)
                .filter("filter", x -> (x & 1) == 0)
                .sink("sink", meteredSink());
        return job;
    }

    private static <T> SinkFunction<T> meteredSink() {
        return value -> SinkMeter.record();
    }
}
