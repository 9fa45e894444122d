package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.realizer.RealizeException;
import dev.flowscale.autoscaler.realizer.RescaleFailedException;
import dev.flowscale.autoscaler.realizer.RescaleInProgressException;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.autoscaler.realizer.SingleFlightRealizer;
import dev.flowscale.autoscaler.testing.Decisions;
import dev.flowscale.autoscaler.testing.RecordingRescaleListener;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.checkpoint.SnapshotInspector;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rescales a real keyed counting job in this JVM through the policy's port. */
class InProcessScalingRealizerTest {
    private static final RateProfile RATE = RateProfile.constant(20_000);
    private static final long RECORDS = 30_000;
    private static final int KEYS = 200;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir Path storage;
    private final RecordingRescaleListener listener = new RecordingRescaleListener();
    private RunningJob job;
    private InProcessScalingRealizer realizer;

    @BeforeEach
    void startJob() throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(64)
                        .withCheckpointing(CheckpointConfig.savepointsOnly(storage));
        job =
                RunningJob.start(
                        CountingJob.graph(
                                CountingJob.source(RATE, RECORDS), KEYS, Map.of(), x -> x),
                        config,
                        null);
        assertThat(job.awaitRunning(TIMEOUT)).isTrue();
        realizer = new InProcessScalingRealizer(job, TIMEOUT, listener);
    }

    private void restartWith(SourceFunction<Long> source) throws Exception {
        stopJob();
        job =
                RunningJob.start(
                        CountingJob.graph(source, KEYS, Map.of(), x -> x), job.config(), null);
        assertThat(job.awaitRunning(TIMEOUT)).isTrue();
        realizer = new InProcessScalingRealizer(job, TIMEOUT, listener);
    }

    @AfterEach
    void stopJob() throws Exception {
        realizer.close();
        job.close();
    }

    @Test
    void aDecisionRescalesTheJobToTheDecidedParallelismAndReportsIt() throws Exception {
        await(realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 3)));

        assertThat(job.graph().operator(CountingJob.COUNT).parallelism()).isEqualTo(3);
        assertThat(job.metrics().parallelism()).containsEntry(CountingJob.COUNT, 3);
        assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
        RescaleReport report = listener.last();
        assertThat(report.succeeded()).as(report.summary()).isTrue();
        assertThat(report.from()).isEqualTo(Map.of(CountingJob.COUNT, 1));
        assertThat(report.to()).isEqualTo(Map.of(CountingJob.COUNT, 3));
        assertThat(report.savepoint()).isPresent();
        // A heap-state rescale hands its state over in memory and writes the savepoint after.
        Path manifest = Path.of(report.savepoint().get()).resolve("_metadata");
        Await.until(
                TIMEOUT,
                "the rescale's savepoint to be written",
                () -> Files.isRegularFile(manifest));
        assertThat(report.downtime()).isPositive();
        assertThat(report.summary()).contains("counting", "count 1 -> 3", "savepoint");
    }

    @Test
    void keyedStateIsKeptAcrossRescalesWhileRecordsFlow() throws Exception {
        await(realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 3)));
        await(realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 3, 2)));
        CountingJob.awaitQuiescence(job, TIMEOUT);

        Path savepoint = job.stopWithSavepoint(TIMEOUT);

        Map<Object, Long> counts =
                SnapshotInspector.mergedKeyedState(
                        savepoint, job.graph(), CountingJob.COUNT, CountingJob.COUNT_STATE);
        assertThat(counts).isEqualTo(CountingJob.expected(RECORDS, KEYS));
        assertThat(listener.reports()).hasSize(2).allMatch(RescaleReport::succeeded);
        assertThat(listener.reports().get(0).savepoint())
                .get()
                .satisfies(p -> assertThat(Path.of(p)).exists());
    }

    @Test
    void anEmulatedRestartKeepsTheJobDownThatMuchLongerAndItsDowntimeIncludesIt() throws Exception {
        realizer.close();
        realizer =
                new InProcessScalingRealizer(
                        job, TIMEOUT, Duration.ofSeconds(1), Clock.systemUTC(), List.of(listener));

        await(realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 2)));
        CountingJob.awaitQuiescence(job, TIMEOUT);

        RescaleReport report = listener.last();
        assertThat(report.succeeded()).as(report.summary()).isTrue();
        assertThat(report.downtime())
                .as("downtime with a 1 s emulated restart")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        Path savepoint = job.stopWithSavepoint(TIMEOUT);
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                savepoint, job.graph(), CountingJob.COUNT, CountingJob.COUNT_STATE))
                .as("no record lost or counted twice")
                .isEqualTo(CountingJob.expected(RECORDS, KEYS));
    }

    @Test
    void anEmulatedRestartOutsideZeroToTenMinutesIsRefusedNamingTheRange() {
        for (Duration bad : new Duration[] {Duration.ofSeconds(-1), Duration.ofMinutes(11)}) {
            assertThatThrownBy(
                            () ->
                                    new InProcessScalingRealizer(
                                            job,
                                            TIMEOUT,
                                            bad,
                                            Clock.systemUTC(),
                                            List.of(listener)))
                    .isInstanceOf(RealizeException.class)
                    .hasMessageContaining("emulated restart")
                    .hasMessageContaining("use 0s to 10m");
        }
    }

    @Test
    void aDecisionRealizedTwiceRescalesOnce() throws Exception {
        ScalingDecision decision = Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 2);
        await(realizer.realize(decision));
        String runAfterFirst = job.metrics().runId();

        await(realizer.realize(decision));

        assertThat(job.metrics().runId()).as("no second stop and restore").isEqualTo(runAfterFirst);
        assertThat(listener.reports()).hasSize(1);
        assertThat(job.graph().operator(CountingJob.COUNT).parallelism()).isEqualTo(2);
    }

    @Test
    void aSecondDecisionWhileOneIsInFlightIsRefusedNotQueued() throws Exception {
        CompletableFuture<Void> first =
                realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 2))
                        .toCompletableFuture();
        CompletableFuture<Void> second =
                realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 4))
                        .toCompletableFuture();

        assertThatThrownBy(() -> second.get(1, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RescaleInProgressException.class)
                .hasMessageContaining("rescale already in progress")
                .hasMessageContaining("counting");
        await(first);
        assertThat(job.graph().operator(CountingJob.COUNT).parallelism()).isEqualTo(2);
        assertThat(listener.reports()).hasSize(1);
        assertThat(realizer.inProgress()).isFalse();
    }

    @Test
    void aDecisionNamingAnUnknownOperatorIsReportedAndTheJobKeepsRunningAtItsParallelism()
            throws Exception {
        assertRescaleFailsAndJobKeepsRunning(
                Decisions.scale(CountingJob.NAME, "no-such-operator", 1, 2), "no-such-operator");
    }

    @Test
    void aParallelismAboveTheNumberOfKeyGroupsIsReportedAndTheJobKeepsRunningAtItsParallelism()
            throws Exception {
        assertRescaleFailsAndJobKeepsRunning(
                Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 500), "count");
    }

    @Test
    void aDecisionForAnotherJobChangesNothing() throws Exception {
        assertRescaleFailsAndJobKeepsRunning(
                Decisions.scale("other-job", CountingJob.COUNT, 1, 2), "other-job");
    }

    @Test
    void aRestoreThatFailsAtTheNewParallelismRollsBackToTheOldOneFromTheSameSavepointKeepingState()
            throws Exception {
        restartWith(new RefusingSource<>(CountingJob.source(RATE, RECORDS), 2));

        CompletableFuture<Void> done =
                realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.SOURCE, 1, 2))
                        .toCompletableFuture();

        assertThatThrownBy(() -> done.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .hasCauseInstanceOf(RescaleFailedException.class)
                .hasMessageContaining("cannot restore its splits");
        assertThat(listener.last().failure())
                .get()
                .asString()
                .contains("restarted at", "the job is RUNNING");
        assertThat(job.graph().parallelism()).containsEntry(CountingJob.SOURCE, 1);
        CountingJob.awaitQuiescence(job, TIMEOUT);
        Path savepoint = job.stopWithSavepoint(TIMEOUT);
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                savepoint, job.graph(), CountingJob.COUNT, CountingJob.COUNT_STATE))
                .isEqualTo(CountingJob.expected(RECORDS, KEYS));
    }

    @Test
    void theJobCanBeRescaledAgainAfterAFailedRescale() throws Exception {
        assertRescaleFailsAndJobKeepsRunning(
                Decisions.scale(CountingJob.NAME, "no-such-operator", 1, 2), "no-such-operator");
        await(realizer.realize(Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 2)));
        assertThat(job.graph().operator(CountingJob.COUNT).parallelism()).isEqualTo(2);
    }

    @Test
    void onlyScaleDecisionsAreRealizedAndUnchangedOperatorsAreLeftAlone() throws Exception {
        ScalingDecision noChange = Decisions.scale(CountingJob.NAME, CountingJob.COUNT, 1, 1);
        assertThatThrownBy(() -> realizer.realize(noChange).toCompletableFuture().get())
                .hasMessageContaining("only SCALE decisions")
                .hasMessageContaining("NO_CHANGE");
        ScalingDecision mixed =
                Decisions.scale(
                        CountingJob.NAME,
                        Map.of(
                                CountingJob.SOURCE,
                                new int[] {1, 1},
                                CountingJob.COUNT,
                                new int[] {1, 2}));
        assertThat(SingleFlightRealizer.changesOf(mixed)).isEqualTo(Map.of(CountingJob.COUNT, 2));
        assertThat(listener.reports()).isEmpty();
    }

    private void assertRescaleFailsAndJobKeepsRunning(ScalingDecision decision, String named)
            throws Exception {
        CompletableFuture<Void> done = realizer.realize(decision).toCompletableFuture();

        assertThatThrownBy(() -> done.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RescaleFailedException.class)
                .hasMessageContaining(named);
        RescaleReport report = listener.last();
        assertThat(report.succeeded()).isFalse();
        assertThat(report.failure()).get().asString().contains(named);
        assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
        assertThat(job.graph().parallelism()).containsEntry(CountingJob.COUNT, 1);
        assertThat(job.awaitRunning(TIMEOUT)).isTrue();
        assertThat(realizer.inProgress()).isFalse();
    }

    private static void await(java.util.concurrent.CompletionStage<Void> stage) throws Exception {
        stage.toCompletableFuture().get(TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
    }
}
