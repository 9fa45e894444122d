package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.checkpoint.SnapshotInspector;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.PolicyConfigBuilder;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The DS2 paper's word count scaled down to this machine: sentences of 20 words at a rate R; each
 * split instance handles R/10 sentences/s and each count instance R words/s (blocking per-record
 * costs), so the optimum is 10 split and 20 count instances at rate R.
 */
final class Ds2Scenario implements RunListener, AutoCloseable {
    static final int WORDS = 20;

    /**
     * A large vocabulary and key groups that divide evenly by 10 and 20 keep the count instances'
     * load even.
     */
    static final SentenceGenerator SENTENCES = new SentenceGenerator(WORDS, 100_000, 11L);

    static final int KEY_GROUPS = 2_000;

    final List<ScalingDecision> decisions = new ArrayList<>();
    final List<RescaleReport> rescales = new ArrayList<>();
    final List<Map<String, Integer>> trajectory = new ArrayList<>();

    /**
     * How often the test ticks the autoscaler: a scheduler's pace, well under the policy interval.
     */
    private static final Duration TICK = Duration.ofMillis(500);

    final EngineScaledRun job;
    private final long sentences;
    private final RateProfile rate;

    Ds2Scenario(
            RateProfile rate,
            double capacityRate,
            long sentences,
            PolicyConfig policy,
            Duration interval,
            Path storage) {
        this(rate, capacityRate, sentences, policy, interval, storage, Map.of());
    }

    Ds2Scenario(
            RateProfile rate,
            double capacityRate,
            long sentences,
            PolicyConfig policy,
            Duration interval,
            Path storage,
            Map<String, Integer> initialParallelism) {
        this(
                rate,
                capacityRate,
                sentences,
                policy,
                interval,
                storage,
                initialParallelism,
                Duration.ZERO);
    }

    /**
     * With {@code emulatedRestart}: every rescale keeps the job down this much longer, as a pod
     * restart would.
     */
    Ds2Scenario(
            RateProfile rate,
            double capacityRate,
            long sentences,
            PolicyConfig policy,
            Duration interval,
            Path storage,
            Map<String, Integer> initialParallelism,
            Duration emulatedRestart) {
        this.sentences = sentences;
        this.rate = rate;
        JobBuilder builder =
                WordCount.build(
                        "ds2-wordcount",
                        new GeneratorSource<>(rate, SENTENCES::sentence, sentences, true),
                        Sinks.counting());
        builder.keyGroups(KEY_GROUPS);
        initialParallelism.forEach(builder::parallelism);
        builder.cost(
                WordCount.SPLIT,
                SyntheticCost.blocking(Duration.ofNanos((long) (1e9 / (capacityRate / 10)))));
        builder.cost(
                WordCount.COUNT,
                SyntheticCost.blocking(Duration.ofNanos((long) (1e9 / capacityRate))));
        JobGraph graph = builder.build();
        RunSettings settings =
                new RunSettings(
                        new JobAutoscaler.Settings(
                                AutoscalerConfig.of(Mode.AUTO, interval),
                                policy,
                                interval.minusMillis(500)),
                        Duration.ofMinutes(1),
                        storage,
                        emulatedRestart,
                        null);
        this.job =
                new EngineScaledRun(
                        graph,
                        settings,
                        new SimpleMeterRegistry(),
                        List.of(this, new LiveConsole(System.out, 10)));
        trajectory.add(graph.parallelism());
    }

    static PolicyConfigBuilder policy() {
        return PolicyConfig.builder()
                .jobBounds(1, 64)
                .warmUp(Duration.ofSeconds(1))
                .noiseTolerance(0.02)
                .expectedRescaleDuration(Duration.ofSeconds(2))
                .maxMetricsAge(Duration.ofSeconds(30))
                // as in the settings table's defaults: a loaded build must size as a quiet one
                .coreWaitCorrection(true);
    }

    @Override
    public synchronized void onDecision(double t, ScalingDecision decision) {
        decisions.add(decision);
    }

    /**
     * Called on the realizer's thread: records only; the test thread checks (an assertion here
     * would jam it).
     */
    @Override
    public synchronized void onRescale(double t, RescaleReport report) {
        rescales.add(report);
        Map<String, Integer> after = new LinkedHashMap<>(parallelism());
        after.putAll(report.to());
        trajectory.add(after);
    }

    /**
     * Ticks the autoscaler every {@link #TICK}, as its scheduler would, until {@code done} holds;
     * fails naming {@code what} at the timeout, or at once on a failed rescale.
     */
    void runUntil(String what, Predicate<Ds2Scenario> done, Duration timeout) {
        Await.until(
                timeout,
                TICK,
                what,
                () -> {
                    // Checked before the tick too: a tick may start a rescale (a trim decided once
                    // the backlog drained), and the condition must not wait out its downtime.
                    if (done.test(this)) {
                        return true;
                    }
                    job.tick();
                    assertNoFailedRescale();
                    return done.test(this);
                });
    }

    /**
     * Waits until {@code done} holds without ticking the autoscaler: the job runs on, a rescale
     * already under way finishes, and no new decision is made.
     */
    void awaitWithoutDeciding(String what, Predicate<Ds2Scenario> done, Duration timeout) {
        Await.until(
                timeout,
                TICK,
                what,
                () -> {
                    assertNoFailedRescale();
                    return done.test(this);
                });
    }

    private synchronized void assertNoFailedRescale() {
        for (RescaleReport report : rescales) {
            assertThat(report.failure()).as("failure of the rescale " + report.changes()).isEmpty();
        }
    }

    synchronized Map<String, Integer> parallelism() {
        return trajectory.get(trajectory.size() - 1);
    }

    synchronized long scaleDecisions() {
        return decisions.stream().filter(d -> d.outcome() == Outcome.SCALE).count();
    }

    long backlog() {
        return job.job().metrics().instancesOf(WordCount.SOURCE).stream()
                .mapToLong(i -> i.backlog())
                .sum();
    }

    /** Whether every sentence has been emitted and processed. */
    boolean drained() {
        var m = job.job().metrics();
        long emitted =
                m.instancesOf(WordCount.SOURCE).stream().mapToLong(i -> i.recordsOut()).sum();
        long counted = m.instancesOf(WordCount.COUNT).stream().mapToLong(i -> i.recordsIn()).sum();
        long split = m.instancesOf(WordCount.SPLIT).stream().mapToLong(i -> i.recordsIn()).sum();
        return backlog() == 0
                && emitted == split
                && counted == split * WORDS
                && job.job().queuedRecords() == 0
                && sourceFinished();
    }

    /** Whether the schedule has made every sentence due (with a second's margin for start-up). */
    private boolean sourceFinished() {
        return rate.dueBy(Math.max(0, job.elapsed() - 1)) >= sentences;
    }

    /** Per-word counts in the job's final state, read from a stop-with-savepoint. */
    Map<Object, Long> finalCounts(Duration timeout) throws InterruptedException {
        Path savepoint = job.stopWithSavepoint(timeout);
        return SnapshotInspector.mergedKeyedState(
                savepoint,
                job.job().graph(),
                WordCount.COUNT,
                StateDescriptor.value("count", Long.class));
    }

    Map<Object, Long> expectedCounts() {
        Map<Object, Long> counts = new HashMap<>();
        for (long i = 0; i < sentences; i++) {
            WordCount.split(SENTENCES.sentence(i), w -> counts.merge(w, 1L, Long::sum));
        }
        return counts;
    }

    /**
     * The nominal optimum, or one above it: on a real engine an instance measures a little under
     * its nominal capacity (scheduling, the machine's load), and sizing never rounds below what
     * sustains the target.
     */
    static void assertAtOptimum(
            Map<String, Integer> parallelism, int split, int count, String when) {
        assertThat(parallelism.get(WordCount.SPLIT))
                .as(when + ": split")
                .isBetween(split, split + 1);
        assertThat(parallelism.get(WordCount.COUNT))
                .as(when + ": count")
                .isBetween(count, count + 1);
    }

    /** No operator went up then down (or down then up) within the trajectory's slice. */
    static void assertNoOscillation(List<Map<String, Integer>> trajectory) {
        for (String op : trajectory.get(0).keySet()) {
            int direction = 0;
            for (int i = 1; i < trajectory.size(); i++) {
                int change =
                        Integer.signum(trajectory.get(i).get(op) - trajectory.get(i - 1).get(op));
                assertThat(direction == 0 || change == 0 || change == direction)
                        .as(op + " oscillates in " + trajectory)
                        .isTrue();
                direction = change == 0 ? direction : change;
            }
        }
    }

    @Override
    public void close() throws Exception {
        job.close();
    }
}
