package dev.flowscale.operator.flink;

import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkVertex;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Carries out a decision on a FlinkDeployment as the Flink Kubernetes operator's own autoscaler
 * does: the new parallelism of every job vertex (by Flink's vertex id) goes into {@code
 * pipeline.jobvertex-parallelism-overrides}, and that operator applies it (an upgrade, or in place
 * where its version and the adaptive scheduler allow). The stage completes when the job runs every
 * vertex at its new parallelism, and fails on timeout, or at once when the deployment is gone or
 * its own autoscaler is on (nothing is written then; the reconciler reports it).
 */
public final class FlinkDeploymentRealizer implements ScalingRealizer {
    static final Duration POLL = Duration.ofSeconds(2);
    private final FlinkDeployments deployments;
    private final String namespace;
    private final String deployment;
    private final Supplier<FlinkJob> job;
    private final Runnable reconcile;
    private final ScheduledExecutorService scheduler;
    private final Duration timeout;
    private final Clock clock;

    public FlinkDeploymentRealizer(
            FlinkDeployments deployments,
            String namespace,
            String deployment,
            Supplier<FlinkJob> job,
            Runnable reconcile,
            ScheduledExecutorService scheduler,
            Duration timeout,
            Clock clock) {
        this.deployments = deployments;
        this.namespace = namespace;
        this.deployment = deployment;
        this.job = job;
        this.reconcile = reconcile;
        this.scheduler = scheduler;
        this.timeout = timeout;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Void> realize(ScalingDecision decision) {
        Map<String, Integer> target;
        FlinkDeployments.Outcome outcome;
        try {
            target = byVertex(job.get(), decision);
            outcome = deployments.writeOverrides(namespace, deployment, target);
        } catch (RuntimeException e) { // Flink's REST API or the API server: nothing changed
            return CompletableFuture.failedFuture(e);
        }
        if (outcome == FlinkDeployments.Outcome.MISSING
                || outcome == FlinkDeployments.Outcome.AUTOSCALER_ENABLED) {
            reconcile.run(); // the reconciler reports it in status and as an Event
            return CompletableFuture.failedFuture(
                    new OperatorException(
                            "FlinkDeployment "
                                    + namespace
                                    + "/"
                                    + deployment
                                    + (outcome == FlinkDeployments.Outcome.MISSING
                                            ? " is gone"
                                            : " has its own autoscaler on")
                                    + ": nothing written"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        await(target, clock.instant().plus(timeout), done);
        return done;
    }

    /** Every vertex: its decided parallelism, or the one it runs at now. */
    static Map<String, Integer> byVertex(FlinkJob now, ScalingDecision decision) {
        Map<String, Integer> result = new LinkedHashMap<>();
        for (FlinkVertex v : now.vertices()) {
            OperatorDecision op = decision.operators().get(v.operatorId());
            result.put(v.id(), op == null ? v.parallelism() : op.newParallelism());
        }
        return result;
    }

    private void await(
            Map<String, Integer> target, Instant deadline, CompletableFuture<Void> done) {
        scheduler.schedule(
                () -> {
                    String last;
                    try {
                        FlinkJob now = job.get();
                        if (now.allVerticesRunning() && runsAt(now, target)) {
                            done.complete(null);
                            return;
                        }
                        last =
                                "job "
                                        + now.id()
                                        + " is "
                                        + now.state()
                                        + " at "
                                        + now.parallelism();
                    } catch (RuntimeException e) { // the JobManager restarts during an upgrade
                        last = e.getMessage();
                    }
                    if (clock.instant().isAfter(deadline)) {
                        done.completeExceptionally(timedOut(target, last));
                    } else {
                        await(target, deadline, done);
                    }
                },
                POLL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private static boolean runsAt(FlinkJob now, Map<String, Integer> target) {
        return now.vertices().stream()
                .allMatch(v -> v.parallelism() == target.getOrDefault(v.id(), v.parallelism()));
    }

    private OperatorException timedOut(Map<String, Integer> target, String last) {
        return new OperatorException(
                "FlinkDeployment "
                        + namespace
                        + "/"
                        + deployment
                        + " did not run at "
                        + FlinkDeployments.overrides(target)
                        + " within "
                        + timeout
                        + " (last seen: "
                        + last
                        + "); see that deployment's status and its operator's events");
    }
}
