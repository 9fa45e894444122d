package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.RunnerHttpMetricsSource;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.autoscaler.testing.HttpRunnerScalingRealizer;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.AutoscalerLoop;
import dev.flowscale.runner.api.RunnerClient;
import dev.flowscale.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 17's end-to-end case in one run: {@code kafka-wordcount} in a job runner process, fed above
 * one count instance's capacity, scaled from its lag by the DS2 autoscaler over the runner's API
 * (each rescale a new runner from a savepoint), then SIGKILLed mid-run and started again on the
 * same storage and port, as a Deployment restarts a pod. Its transactions time out only after 10
 * minutes, so the output shows up at once only because the restart aborts the killed runner's open
 * transaction. About a minute here (several runner JVMs), so it runs in the {@code kafka-long}
 * profile: {@code mvn -B -pl cli verify -Pkafka-long -Dit.test=KafkaAutoscaledRunnerKillIT}.
 */
@Tag("kafka-long")
class KafkaAutoscaledRunnerKillIT extends WithKafkaBroker {
    private static final int WORDS = 5;
    private static final int VOCABULARY = 40;
    private static final int SENTENCES_PER_S = 40;
    private static final int SENTENCES = SENTENCES_PER_S * 40;
    private static final double COUNT_CAPACITY = 100;
    private static final Duration INTERVAL = Duration.ofSeconds(3);
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final String IN = "scale-kill-in";
    private static final String OUT = "scale-kill-out";

    private final List<ScalingDecision> decisions = new CopyOnWriteArrayList<>();
    private final List<RescaleReport> rescales = new CopyOnWriteArrayList<>();

    @Test
    void theAutoscaledJobSurvivesARunnerKillAndCommitsEveryCountOnce() throws Exception {
        topics.create(IN, 4);
        topics.create(OUT, 2);
        try (KafkaRunnerProcesses runners = runners();
                Feed feed = new Feed()) {
            runners.start(Map.of(WordCount.COUNT, 1), null);
            Controller controller = new Controller(runners);
            feed.start();
            controller.tickUntil("a rescale that scales the count up", () -> !rescales.isEmpty());
            assertTheFirstScaleFollowedTheLag();
            Map<String, Integer> scaled = rescales.get(rescales.size() - 1).to();
            int committed = committed().size();
            controller.tickUntil(
                    "counts committed by the rescaled runner",
                    () -> committed().size() > committed);
            runners.kill();
            System.out.printf("killed the runner at %s, %d sentences in%n", scaled, feed.sent());
            runners.start(scaled, null);
            assertThat(RunnerClient.connect(runners.endpoint(), WAIT, null).job().parallelism())
                    .as("the restarted runner resumes at the rescaled parallelism")
                    .containsAllEntriesOf(scaled);
            controller.tickUntil("every sentence produced", () -> feed.sent() >= SENTENCES);
            controller.tickUntil(
                    "every count committed", () -> committed().size() >= SENTENCES * WORDS);
        }
        System.out.printf(
                "%d decisions, %d rescales: %s%n",
                decisions.size(),
                rescales.size(),
                rescales.stream().map(RescaleReport::to).toList());
        assertThat(rescales).allSatisfy(r -> assertThat(r.failure()).as(r.summary()).isEmpty());
        assertCountedOnce(committed());
    }

    private static List<String> committed() {
        return topics.readAllText(OUT, true);
    }

    private KafkaRunnerProcesses runners() {
        List<String> args =
                List.of(
                        "--kafka-bootstrap-servers",
                        broker.bootstrapServers(),
                        "--kafka-topic",
                        IN,
                        "--kafka-output-topic",
                        OUT,
                        "--checkpoint-interval",
                        "500ms",
                        "--cost",
                        WordCount.COUNT + "=sleep:" + (long) (1e6 / COUNT_CAPACITY) + "us");
        return new KafkaRunnerProcesses(
                args,
                dir.resolve("runner"),
                Map.of("KAFKA_CLIENT_TRANSACTION_TIMEOUT_MS", "600000"));
    }

    /**
     * The first SCALE decision planned the source for at least 0.8 x the arrival rate (its lag's
     * catch-up on top), and enough count instances for the words of that rate.
     */
    private void assertTheFirstScaleFollowedTheLag() {
        ScalingDecision first =
                decisions.stream()
                        .filter(d -> d.outcome() == Outcome.SCALE)
                        .findFirst()
                        .orElseThrow();
        Map<String, OperatorDecision> planned = first.operators();
        int countsNeeded = (int) Math.ceil(SENTENCES_PER_S * WORDS / COUNT_CAPACITY);
        assertThat(planned)
                .as(first.explain())
                .hasEntrySatisfying(
                        WordCount.SOURCE,
                        d ->
                                assertThat(d.targetInputRate())
                                        .isGreaterThanOrEqualTo(0.8 * SENTENCES_PER_S))
                .hasEntrySatisfying(
                        WordCount.COUNT,
                        d ->
                                assertThat(d.recommendedParallelism())
                                        .isGreaterThanOrEqualTo(countsNeeded));
    }

    /** The DS2 loop as the operator runs it, over the runner's API at its stable address. */
    private final class Controller {
        private final WindowedMetricsProvider provider;
        private final AutoscalerLoop autoscaler;

        Controller(KafkaRunnerProcesses runners) {
            Clock clock = Clock.systemUTC();
            HttpRunnerScalingRealizer realizer =
                    new HttpRunnerScalingRealizer(
                            runners.endpoint(), runners, WAIT, clock, List.of(rescales::add));
            provider =
                    new WindowedMetricsProvider(
                            new RunnerHttpMetricsSource(runners.endpoint(), Duration.ofSeconds(5)),
                            new WindowSettings(INTERVAL.minusMillis(500), Duration.ofSeconds(3)),
                            List.of());
            PolicyConfig policy =
                    PolicyConfig.builder()
                            .jobBounds(1, 8)
                            .warmUp(Duration.ofSeconds(3))
                            .catchUpDuration(Duration.ofSeconds(10))
                            .expectedRescaleDuration(Duration.ofSeconds(3))
                            .scaleDownDelay(Duration.ofMinutes(5))
                            .build();
            DecisionListener record = decisions::add;
            Consumer<Throwable> log = e -> System.err.println("autoscaler: " + e);
            AutoscalerConfig auto = AutoscalerConfig.of(Mode.AUTO, INTERVAL);
            autoscaler =
                    new AutoscalerLoop(
                            auto,
                            new Ds2Policy(policy, clock),
                            provider,
                            realizer,
                            List.of(record),
                            clock,
                            log);
        }

        /**
         * Ticks the loop every 500 ms until {@code done}; rescales run on the realizer's thread.
         */
        void tickUntil(String what, BooleanSupplier done) {
            Await.until(
                    WAIT,
                    Duration.ofMillis(500),
                    what,
                    () -> {
                        provider.poll();
                        autoscaler.tick();
                        return done.getAsBoolean();
                    });
        }
    }

    /**
     * Sentences at {@link #SENTENCES_PER_S} until {@link #SENTENCES}: sentence i, words "w<(i + k)
     * mod VOCABULARY>" for k < WORDS, goes to partition i mod 4.
     */
    private static final class Feed implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> kafka = topics.producer();
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        private final AtomicLong sent = new AtomicLong();

        void start() {
            timer.scheduleAtFixedRate(this::tenth, 0, 100, TimeUnit.MILLISECONDS);
        }

        long sent() {
            return sent.get();
        }

        private void tenth() {
            long end = Math.min(SENTENCES, sent.get() + SENTENCES_PER_S / 10);
            LongStream.range(sent.get(), end)
                    .mapToObj(i -> new ProducerRecord<>(IN, (int) (i % 4), (byte[]) null, utf8(i)))
                    .forEach(kafka::send);
            kafka.flush();
            sent.set(end);
        }

        private static byte[] utf8(long i) {
            return sentence(i).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws InterruptedException {
            timer.shutdownNow();
            timer.awaitTermination(10, TimeUnit.SECONDS);
            kafka.close();
        }
    }

    private static String sentence(long i) {
        return IntStream.range(0, WORDS)
                .mapToObj(k -> "w" + (i + k) % VOCABULARY)
                .collect(Collectors.joining(" "));
    }

    /** Each word's counts 1..n appear once each, n being how often the producer wrote it. */
    private static void assertCountedOnce(List<String> committed) {
        Map<String, Long> occurrences =
                LongStream.range(0, SENTENCES)
                        .boxed()
                        .flatMap(i -> Arrays.stream(sentence(i).split(" ")))
                        .collect(Collectors.groupingBy(w -> w, Collectors.counting()));
        List<String> expected =
                occurrences.entrySet().stream()
                        .flatMap(
                                e ->
                                        LongStream.rangeClosed(1, e.getValue())
                                                .mapToObj(c -> e.getKey() + " " + c))
                        .toList();
        assertThat(committed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
    }
}
