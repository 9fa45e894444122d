package dev.flowscale.operator.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Fabric8JobEvents;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Decisions and rescales in status and Events, and the launcher's Deployment update, on the mock
 * API server.
 */
@EnableKubernetesMockClient(crud = true)
class JobStatusReporterIT {
    static final String NS = "jobs";
    static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
    KubernetesClient client;
    JobStatusReporter reporter;
    StreamJob cached; // the informer cache's copy the realizer reads

    @BeforeEach
    void createJob() {
        StreamJob job = StreamJobs.wordCount(NS, "wc");
        job.setStatus(new StreamJobStatus());
        client.resource(job).create();
        reporter =
                new JobStatusReporter(
                        new JobStatusStore(client),
                        new Fabric8JobEvents(client, clock),
                        NS,
                        "wc",
                        clock);
    }

    @Test
    void aScaleDecisionIsTheLastDecisionInStatusAndAScalingReportEvent() {
        reporter.onDecision(scaleCount(3, 6));

        StreamJobStatus status = job().getStatus();
        assertThat(status.lastDecision.summary).isEqualTo("count 3→6");
        assertThat(status.lastDecision.time).isEqualTo(T0.toString());
        assertThat(status.lastDecision.operators)
                .singleElement()
                .satisfies(
                        op -> {
                            assertThat(op.targetRate).isEqualTo(6000.0);
                            assertThat(op.capacity).isEqualTo(1000.0);
                        });
        assertThat(events(JobEvents.SCALING_REPORT))
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e.getMessage())
                                        .contains("count 3→6")
                                        .contains("target 6000.0/s, 1000.0/s per instance")
                                        .contains("bottleneck"));
    }

    @Test
    void aDecisionThatArrivesAfterTheRunEndedIsNotRecorded() {
        reporter.onDecision(scaleCount(3, 6));
        new JobStatusStore(client).edit(NS, "wc", status -> status.phase = JobPhase.Finished);

        reporter.onDecision(scaleCount(6, 8));

        assertThat(job().getStatus().lastDecision.summary)
                .as("the decision taken on the ended run's samples")
                .isEqualTo("count 3→6");
        assertThat(events(JobEvents.SCALING_REPORT)).hasSize(1);
    }

    @Test
    void theHistoryKeepsOnlyTheLatestDistinctDecisions() {
        for (int i = 0; i < StreamJobStatus.HISTORY_LIMIT + 5; i++) {
            reporter.onDecision(scaleCount(3 + i, 4 + i));
        }
        reporter.onDecision(scaleCount(17, 18));

        StreamJobStatus status = job().getStatus();
        assertThat(status.history).hasSize(StreamJobStatus.HISTORY_LIMIT);
        assertThat(status.history.get(StreamJobStatus.HISTORY_LIMIT - 1).summary)
                .isEqualTo("count 17→18");
    }

    @Test
    void aBlockedDecisionIsReportedOnceUntilItChanges() {
        reporter.onDecision(
                ScalingDecision.blocked(T0, "wordcount", BlockReason.WARMING_UP, "warming up"));
        reporter.onDecision(
                ScalingDecision.blocked(T0, "wordcount", BlockReason.WARMING_UP, "warming up"));

        assertThat(job().getStatus().lastDecision.summary).isEqualTo("BLOCKED (WARMING_UP)");
        assertThat(events(JobEvents.SCALING_BLOCKED)).hasSize(1);
    }

    @Test
    void aScaleDecisionIsOnlyRecordedAsTheDesiredParallelismAndTheLoopIsDone() {
        int[] reconciles = new int[1];
        StatusScalingRealizer realizer = realizer(() -> reconciles[0]++);

        var stage = realizer.realize(scaleCount(3, 6)).toCompletableFuture();

        assertThat(job().getStatus().desiredParallelism).containsExactly(Map.entry("count", 6));
        assertThat(reconciles[0]).isEqualTo(1);
        assertThat(client.apps().deployments().inNamespace(NS).withName("wc-runner").get())
                .as("the autoscaler never touches the runner")
                .isNull();
        assertThat(stage).as("recorded: nothing waits on the reconciler").isCompleted();
    }

    @Test
    void aRescaleIsLearnedFromStatusWithTheExecutorsMeasuredDowntimeAndPath() {
        StatusScalingRealizer realizer = realizer(() -> {});
        realizer.realize(scaleCount(3, 6));
        RescaleRecord started = startedAtT0();
        StreamJob rescaling = job();
        rescaling.getStatus().pending = new PendingChange();

        cached = rescaling;
        assertThat(realizer.outcome(started)).as("the reconciler is still at it").isEmpty();
        cached = rescaledTo(6, true);
        RescaleRecord done = realizer.outcome(started).orElseThrow();

        assertThat(done.failed()).isFalse();
        assertThat(done.path()).isEqualTo(PendingChange.IN_PLACE);
        assertThat(done.finished()).contains(T0.plusSeconds(10));
        assertThat(done.duration()).as("the measured downtime").contains(Duration.ofMillis(1500));
        assertThat(done.target()).isEqualTo(started.target());
    }

    @Test
    void aRequestTheReconcilerDeclinedEndsAsFailedOnceTheStatusShowsItWasSettled() {
        StatusScalingRealizer realizer = realizer(() -> {});
        realizer.realize(scaleCount(3, 6));
        StreamJob stale = job();
        stale.getStatus().desiredParallelism.clear();

        cached = stale;
        assertThat(realizer.outcome(startedAtT0()))
                .as("a pass that had not seen the request yet")
                .isEmpty();
        cached = settled(job());
        assertThat(realizer.outcome(startedAtT0()))
                .hasValueSatisfying(r -> assertThat(r.failed()).isTrue());
    }

    @Test
    void aNewRequestIsNotEndedBeforeTheExecutorHasSettledIt() {
        StatusScalingRealizer realizer = realizer(() -> {});
        realizer.realize(scaleCount(3, 6));

        // The cache holds the request; the executor has not written status.pending yet.
        cached = job();
        assertThat(cached.getStatus().desiredParallelism).containsEntry("count", 6);
        assertThat(cached.getStatus().pending).isNull();
        assertThat(realizer.outcome(startedAtT0()))
                .as("the executor's pass has not seen the request: nothing ended")
                .isEmpty();

        cached = rescaledTo(6, true);
        assertThat(realizer.outcome(startedAtT0()))
                .hasValueSatisfying(r -> assertThat(r.failed()).isFalse());
    }

    @Test
    void aFailedRescaleToTheRequestIsLearnedAsFailed() {
        StatusScalingRealizer realizer = realizer(() -> {});
        realizer.realize(scaleCount(3, 6));

        cached = rescaledTo(6, false);

        assertThat(realizer.outcome(startedAtT0()).orElseThrow().failed()).isTrue();
    }

    @Test
    void aRescaleThatFinishedBeforeTheRequestIsNotItsEnd() {
        StatusScalingRealizer realizer = realizer(() -> {});
        cached = rescaledTo(6, true);
        RescaleRecord later =
                RescaleRecord.started(
                        T0.plusSeconds(60), Map.of("count", 6), RescaleRecord.RESTART);

        assertThat(realizer.outcome(later)).isEmpty();
    }

    private StatusScalingRealizer realizer(Runnable reconcile) {
        return new StatusScalingRealizer(
                new JobStatusStore(client),
                NS,
                "wc",
                reconcile,
                () -> Optional.ofNullable(cached),
                clock);
    }

    /** A rescale of Count to 6 the loop (or an earlier one) started at T0. */
    private static RescaleRecord startedAtT0() {
        return RescaleRecord.started(T0, scaleCount(3, 6).newParallelism(), RescaleRecord.RESTART);
    }

    /**
     * The job as the reconciler leaves it when it finished a rescale of Count to {@code to} in
     * place 10 s after T0, down for 1.5 s.
     */
    private StreamJob rescaledTo(int to, boolean succeeded) {
        StreamJob job = job();
        RescaleOutcome outcome = new RescaleOutcome();
        outcome.time = T0.plusSeconds(10).toString();
        outcome.path = PendingChange.IN_PLACE;
        outcome.downtimeSeconds = 1.5;
        outcome.to = Map.of("count", to);
        outcome.succeeded = succeeded;
        job.getStatus().lastRescale = outcome;
        if (succeeded) {
            job.getStatus().parallelism.put("count", to);
        }
        return settled(job);
    }

    /** {@code job} as a pass of the executor leaves it once it has settled the latest request. */
    private static StreamJob settled(StreamJob job) {
        job.getStatus().settledRequest = job.getStatus().desiredRequest;
        return job;
    }

    private static ScalingDecision scaleCount(int from, int to) {
        OperatorDecision count =
                new OperatorDecision(
                        "count", from, to, to, 6000, 1000, 1.0, 0, List.of("bottleneck"));
        return ScalingDecision.of(
                T0, "wordcount", List.of("count is the bottleneck"), List.of(count));
    }

    private StreamJob job() {
        return client.resources(StreamJob.class).inNamespace(NS).withName("wc").get();
    }

    private List<Event> events(String reason) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }
}
