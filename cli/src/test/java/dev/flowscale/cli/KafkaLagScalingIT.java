package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.cli.JobOptions;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.KafkaWordCount;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.settings.SettingValues;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 17's end-to-end case against a real broker: {@code kafka-wordcount} (Kafka → split → count
 * → Kafka, exactly once) under the DS2 autoscaler, fed by a producer at {@link #SENTENCES_PER_S}
 * sentences of {@link #WORDS} words while one count instance handles {@link #COUNT_CAPACITY}
 * words/s. The source's target rate is the topic's arrival rate plus catch-up of its lag, so the
 * autoscaler scales the count up; the lag drains within the catch-up time; the committed output
 * holds every word's running count exactly once across the rescales.
 */
class KafkaLagScalingIT extends WithKafkaBroker implements RunListener {
    private static final int WORDS = 5;
    private static final int VOCABULARY = 40;
    private static final int SENTENCES_PER_S = 60;
    private static final double COUNT_CAPACITY = 100;
    private static final Duration PRODUCE_FOR = Duration.ofSeconds(24);
    private static final Duration CATCH_UP = Duration.ofSeconds(8);
    private static final Duration INTERVAL = Duration.ofSeconds(3);

    private final List<ScalingDecision> decisions = new CopyOnWriteArrayList<>();
    private final List<RescaleReport> rescales = new CopyOnWriteArrayList<>();
    private final AtomicLong produced = new AtomicLong();

    /** Sentences the broker had acknowledged, by when the producer's flush returned. */
    private final ConcurrentSkipListMap<Instant, Long> acknowledged = new ConcurrentSkipListMap<>();

    private volatile long lastRescaleDone;

    @Test
    void lagScalesTheCountUpDrainsInTheCatchUpTimeAndEveryCountIsCommittedOnce() throws Exception {
        topics.create("lag-in", 4);
        topics.create("lag-out", 2);
        ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> kafka = topics.producer();
                EngineScaledRun job = start()) {
            producer.scheduleAtFixedRate(
                    () -> produce(kafka, SENTENCES_PER_S / 10), 0, 100, TimeUnit.MILLISECONDS);
            long total = (long) (SENTENCES_PER_S * PRODUCE_FOR.toSeconds());
            tickUntil(job, "a rescale that scales the count up", () -> scaledUp() != null);
            ScalingDecision first = scaledUp();
            OperatorDecision source = first.operators().get(WordCount.SOURCE);
            // The arrival rate is what the broker acknowledged over the decision's window. While
            // the source took the log's ends only when its blocked thread came back to fetch,
            // CI windows measured 21.5 and 23.8 sentences/s offered where the broker had
            // acknowledged 60 and 61.8.
            double arrived = arrivalRate(first);
            System.out.printf(
                    "first scale-up: source target %.1f/s, %.1f sentences/s acknowledged in its"
                            + " window%n",
                    source.targetInputRate(), arrived);
            assertThat(source.targetInputRate())
                    .as(
                            "the source's target: arrival rate (%.1f sentences/s acknowledged in"
                                    + " the window) plus catch-up, %s",
                            arrived, first.explain())
                    .isGreaterThanOrEqualTo(0.8 * Math.min(SENTENCES_PER_S, arrived));
            assertThat(first.operators().get(WordCount.COUNT).recommendedParallelism())
                    .as(first.explain())
                    .isGreaterThanOrEqualTo(
                            (int) Math.ceil(SENTENCES_PER_S * WORDS / COUNT_CAPACITY));
            tickUntil(job, "the first rescale done", () -> lastRescaleDone != 0);
            tickUntil(job, "the lag under one second of input", () -> lag(job) < SENTENCES_PER_S);
            double drained = (System.nanoTime() - lastRescaleDone) / 1e9;
            System.out.printf(
                    "lag drained %.1f s after the last of %d rescales%n", drained, rescales.size());
            // The catch-up time, and one policy interval for a decision on the new run's window.
            assertThat(drained)
                    .as("seconds from the last rescale to a drained lag")
                    .isLessThanOrEqualTo(CATCH_UP.toSeconds() + INTERVAL.toSeconds());
            tickUntil(job, "every sentence produced", () -> produced.get() >= total);
            producer.shutdownNow();
            Await.until(
                    Duration.ofSeconds(30),
                    "every count committed",
                    () -> topics.readAllText("lag-out", true).size() >= total * WORDS);
        } finally {
            producer.shutdownNow();
        }
        assertCountedOnce(topics.readAllText("lag-out", true), produced.get());
    }

    private EngineScaledRun start() {
        JobOptions options =
                CommandLine.populateCommand(
                        new JobOptions(),
                        "--kafka-bootstrap-servers",
                        broker.bootstrapServers(),
                        "--kafka-topic",
                        "lag-in",
                        "--kafka-output-topic",
                        "lag-out");
        JobBuilder builder = new KafkaWordCount().build(options, false);
        builder.cost(
                WordCount.COUNT,
                SyntheticCost.blocking(Duration.ofNanos((long) (1e9 / COUNT_CAPACITY))));
        // The defaults a user of ./flowscale gets (skew correction, learned scalability), over a
        // shorter time scale: forty words over 128 key groups leave the busiest of seven count
        // instances a fifth of the words, not a seventh, and only the skew-aware plan drains the
        // lag in the catch-up time (plain DS2 drained in 12-14 s, twice in CI).
        PolicyConfig policy =
                SettingValues.defaults().policy().toBuilder()
                        .jobBounds(1, 16)
                        // The producer starts right after the job: a first window that began
                        // before its first record measured 26 of 60 sentences/s (twice in CI).
                        .warmUp(Duration.ofSeconds(3))
                        .catchUpDuration(CATCH_UP)
                        // This job rescales through a savepoint (its sink is transactional):
                        // 3.7 s down in a local run; the next decisions use the measured figure.
                        .expectedRescaleDuration(Duration.ofSeconds(4))
                        .scaleDownDelay(Duration.ofMinutes(5))
                        .build();
        RunSettings settings =
                new RunSettings(
                        new JobAutoscaler.Settings(
                                AutoscalerConfig.of(Mode.AUTO, INTERVAL),
                                policy,
                                INTERVAL.minusMillis(500)),
                        Duration.ofSeconds(30),
                        dir.resolve("job"),
                        Duration.ZERO,
                        Duration.ofMillis(500));
        return new EngineScaledRun(
                builder.build(),
                settings,
                new SimpleMeterRegistry(),
                List.of(this, new LiveConsole(System.out, 10)));
    }

    /** Sentence i: words "w<(i + k) mod VOCABULARY>" for k < WORDS, to partition i mod 4. */
    private void produce(KafkaProducer<byte[], byte[]> kafka, int sentences) {
        for (int s = 0; s < sentences; s++) {
            long i = produced.get();
            if (i >= SENTENCES_PER_S * PRODUCE_FOR.toSeconds()) {
                return;
            }
            kafka.send(
                    new ProducerRecord<>(
                            "lag-in",
                            (int) (i % 4),
                            null,
                            sentence(i).getBytes(StandardCharsets.UTF_8)));
            produced.incrementAndGet();
        }
        kafka.flush();
        acknowledged.put(Instant.now(), produced.get());
    }

    /**
     * Sentences per second the broker acknowledged over decision's window ("DS2 over the window A
     * .. B", its first reason), and over the same window half a second earlier (the source asks for
     * the log's ends 200 ms after each answer, so it learns them up to that plus a round trip
     * late): the lower of the two.
     */
    private double arrivalRate(ScalingDecision decision) {
        Matcher window =
                Pattern.compile("DS2 over the window (\\S+) \\.\\. (\\S+)")
                        .matcher(String.join("\n", decision.reasons()));
        assertThat(window.find()).as("the window in %s", decision.explain()).isTrue();
        Instant start = Instant.parse(window.group(1));
        Instant end = Instant.parse(window.group(2));
        Duration late = Duration.ofMillis(500);
        return Math.min(
                acknowledgedBetween(start, end),
                acknowledgedBetween(start.minus(late), end.minus(late)));
    }

    private double acknowledgedBetween(Instant from, Instant to) {
        double seconds = Duration.between(from, to).toNanos() / 1e9;
        return (acknowledgedAt(to) - acknowledgedAt(from)) / seconds;
    }

    private long acknowledgedAt(Instant t) {
        Map.Entry<Instant, Long> last = acknowledged.floorEntry(t);
        return last == null ? 0 : last.getValue();
    }

    private static String sentence(long i) {
        List<String> words = new ArrayList<>();
        for (int k = 0; k < WORDS; k++) {
            words.add("w" + (i + k) % VOCABULARY);
        }
        return String.join(" ", words);
    }

    private void tickUntil(
            EngineScaledRun job, String what, java.util.function.BooleanSupplier done) {
        Await.until(
                Duration.ofSeconds(40),
                Duration.ofMillis(500),
                what,
                () -> {
                    throwIfFailed(job.job());
                    assertThat(job.job().status())
                            .as("job status while waiting for " + what)
                            .isIn(RunningJob.Status.RUNNING, RunningJob.Status.RESCALING);
                    job.tick();
                    // A rescale whose stop overran its timeout rolls back and the job runs on
                    // (in a build at load 25 the count's stop took over 30 s): allowed, with
                    // its reason; the counts must still be exact.
                    rescales.forEach(
                            r ->
                                    r.failure()
                                            .ifPresent(
                                                    f ->
                                                            assertThat(f)
                                                                    .as("rescale %s", r.changes())
                                                                    .contains(
                                                                            "keeps running from its latest snapshot")));
                    return done.getAsBoolean();
                });
    }

    /** A failed job's own exception says more than its status. */
    private static void throwIfFailed(RunningJob job) {
        if (job.status() == RunningJob.Status.FAILED) {
            try {
                job.await(Duration.ZERO);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private ScalingDecision scaledUp() {
        return decisions.stream()
                .filter(d -> d.outcome() == Outcome.SCALE)
                .findFirst()
                .orElse(null);
    }

    /**
     * The source's lag while the job runs; unknown (the maximum) while it rescales or a reader has
     * no lag signal yet.
     */
    private static long lag(EngineScaledRun job) {
        var sources = job.job().metrics().instancesOf(WordCount.SOURCE);
        if (job.job().status() != RunningJob.Status.RUNNING || sources.isEmpty()) {
            return Long.MAX_VALUE;
        }
        if (sources.stream().anyMatch(i -> i.backlog() == null)) {
            return Long.MAX_VALUE;
        }
        return sources.stream().mapToLong(i -> i.backlog()).sum();
    }

    /** Each word's counts 1..n appear once each, n being how often the producer wrote it. */
    private static void assertCountedOnce(List<String> committed, long sentences) {
        Map<String, Long> expected = new HashMap<>();
        for (long i = 0; i < sentences; i++) {
            for (String w : sentence(i).split(" ")) {
                expected.merge(w, 1L, Long::sum);
            }
        }
        List<String> wanted = new ArrayList<>();
        expected.forEach(
                (w, n) -> {
                    for (long c = 1; c <= n; c++) {
                        wanted.add(w + " " + c);
                    }
                });
        assertThat(committed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(wanted);
    }

    @Override
    public void onDecision(double t, ScalingDecision decision) {
        decisions.add(decision);
    }

    @Override
    public void onRescale(double t, RescaleReport report) {
        if (report.failure().isEmpty()) {
            lastRescaleDone = System.nanoTime();
        }
        rescales.add(report);
    }
}
