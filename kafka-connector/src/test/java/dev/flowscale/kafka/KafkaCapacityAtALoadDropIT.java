package dev.flowscale.kafka;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The Kafka operators' measured capacity (DS2's true processing rate, records per useful second) is
 * a property of the operator, not of its input: when the rate written to the input topic halves,
 * neither the source's nor the exactly-once sink's true processing rate may halve with it. If it
 * did, an autoscaler would read the load drop as a bottleneck and scale up, as {@code demo --kafka}
 * once did. The costs found, each per checkpoint or per call rather than per record: the sink's
 * first record after a barrier waited for its transaction to open; the source's fetch cost the same
 * for 1 record as for 500 (counted now in the share of a full fetch it brings).
 *
 * <p>Windows are delimited by record counts, not by time: each spans several checkpoints. A
 * statistical check: on a loaded machine the rates vary several-fold between runs.
 */
class KafkaCapacityAtALoadDropIT extends WithKafkaBroker {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int HIGH = 400;
    private static final int LOW = HIGH / 2;
    private static final int TICKS_PER_SECOND = 20;
    private static final long WARM_UP_SECONDS = 4;
    private static final String SOURCE = "kafka";
    private static final String SINK = "to-kafka";

    /**
     * The rate may fall by this much at half the input: what remains of per-batch costs is spread
     * over fewer records at a lower rate. A cost per checkpoint counted as useful time halves it
     * (0.5).
     */
    private static final double LEAST_RATIO = 0.7;

    private final AtomicInteger perSecond = new AtomicInteger(HIGH);
    private final AtomicLong written = new AtomicLong();

    @Test
    void theSourcesAndTheSinksTrueProcessingRatesHoldWhenTheInputRateHalves() throws Exception {
        topics.create("drop-in", 4);
        topics.create("drop-out", 1);
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> producer = topics.producer();
                RunningJob job = start()) {
            pacer.scheduleAtFixedRate(
                    () -> writeTick(producer), 0, 1000 / TICKS_PER_SECOND, TimeUnit.MILLISECONDS);
            // The job's first seconds run its code before the JIT has compiled it: their costs
            // per record are not the operators' capacity at either rate.
            awaitSinkPast(job, WARM_UP_SECONDS * HIGH);
            Map<String, Double> high = window(job, HIGH);
            perSecond.set(LOW);
            Map<String, Double> low = window(job, LOW);
            SoftAssertions soft = new SoftAssertions();
            for (String operator : new String[] {SOURCE, SINK}) {
                double before = high.get(operator);
                double after = low.get(operator);
                soft.assertThat(after)
                        .as(
                                "%s's true processing rate at %d/s in (%.0f/s) against at %d/s"
                                        + " (%.0f/s)",
                                operator, LOW, after, HIGH, before)
                        .isGreaterThanOrEqualTo(LEAST_RATIO * before);
            }
            soft.assertAll();
        } finally {
            pacer.shutdownNow();
        }
    }

    private void writeTick(KafkaProducer<byte[], byte[]> producer) {
        int n = perSecond.get() / TICKS_PER_SECOND;
        for (int i = 0; i < n; i++) {
            long seq = written.getAndIncrement();
            producer.send(
                    new ProducerRecord<>(
                            "drop-in", ("word" + (seq % 100)).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static RunningJob start() {
        KafkaSinkConfig sink =
                KafkaSinkConfig.exactlyOnce(broker.bootstrapServers(), "drop-out")
                        .withTransactionTimeout(Duration.ofSeconds(20));
        JobBuilder job = JobBuilder.named("drop");
        job.source(
                        SOURCE,
                        KafkaSource.utf8(
                                KafkaSourceConfig.of(broker.bootstrapServers(), "drop-in")))
                .parallelism(1)
                .process(SINK, KafkaSink.of(sink, KafkaRecordSerializer.utf8()))
                // Not chained to the source: each operator's useful time is then its thread's,
                // measured by phase, not a share of a chain's estimated from samples.
                .parallelism(2);
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(
                                CheckpointConfig.every(
                                        Duration.ofMillis(500), dir.resolve("drop")));
        return job.start(config);
    }

    /**
     * The true processing rates over a window of about 5 s of input at {@code rate}, after 2 s of
     * it to settle: 10 checkpoints or so, each of which opens a transaction. As the policy takes
     * them (docs/metrics.md, "CPU time, waiting for a core"): over useful time less the time the
     * threads waited for a core in it. On this loaded 2-core machine that wait was most of the
     * useful time in some windows and little in others; uncorrected, it moved the rates several
     * fold between windows whatever the input.
     */
    private Map<String, Double> window(RunningJob job, int rate) {
        awaitSinkPast(job, sinkRecords(job) + 2L * rate);
        JobMetricsSnapshot first = job.metrics();
        awaitSinkPast(job, sinkRecords(job) + 5L * rate);
        JobMetricsSnapshot last = job.metrics();
        Map<String, OperatorRates> raw = last.ratesSince(first);
        Map<String, Double> rates = new HashMap<>();
        for (String operator : new String[] {SOURCE, SINK}) {
            double share = coreWaitShare(first.instancesOf(operator), last.instancesOf(operator));
            double corrected = raw.get(operator).trueProcessingRate() / (1 - share);
            System.out.printf(
                    "%s at %d/s in: true processing rate %.0f/s, %.0f/s less a core wait of %.0f %%"
                            + " of its useful time%n",
                    operator, rate, raw.get(operator).trueProcessingRate(), corrected, 100 * share);
            rates.put(operator, corrected);
        }
        return rates;
    }

    /**
     * The share of the instances' useful time spent waiting for a core, as the collector computes
     * it: each instance's run delay in the window taken in proportion to useful over observed time,
     * summed over the summed useful time; capped at 0.98 as the policy caps it.
     */
    private static double coreWaitShare(List<InstanceCounts> starts, List<InstanceCounts> ends) {
        double waited = 0;
        double useful = 0;
        for (int i = 0; i < starts.size(); i++) {
            InstanceCounts a = starts.get(i);
            InstanceCounts b = ends.get(i);
            if (a.coreWaitNanos() == null || b.coreWaitNanos() == null) {
                return 0; // not Linux: the policy has no correction either
            }
            double u = b.usefulNanos() - a.usefulNanos();
            double observed = b.observedNanos() - a.observedNanos();
            waited += (b.coreWaitNanos() - a.coreWaitNanos()) * Math.min(1, u / observed);
            useful += u;
        }
        return useful > 0 ? Math.min(0.98, Math.max(0, waited / useful)) : 0;
    }

    private void awaitSinkPast(RunningJob job, long records) {
        try {
            Await.until(
                    TIMEOUT,
                    "the sink past " + records + " records",
                    () -> sinkRecords(job) >= records);
        } catch (AssertionError e) {
            throw new AssertionError(
                    e.getMessage()
                            + "; written "
                            + written.get()
                            + ", job "
                            + job.status()
                            + ", instances "
                            + job.metrics().instancesOf(SOURCE)
                            + job.metrics().instancesOf(SINK),
                    e);
        }
    }

    private static long sinkRecords(RunningJob job) {
        return job.metrics().instancesOf(SINK).stream().mapToLong(i -> i.recordsIn()).sum();
    }
}
