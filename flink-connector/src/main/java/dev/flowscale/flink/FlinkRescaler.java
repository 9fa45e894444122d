package dev.flowscale.flink;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Carries out the policy's decisions on a Flink job through its REST API. On the adaptive scheduler
 * in place: the job's resource requirements ({@code PUT jobs/:id/resource-requirements}) get the
 * new parallelism as upper bound, and Flink restarts the job from its latest checkpoint at that
 * parallelism; on timeout the old requirements are put back. Otherwise through a savepoint:
 * stop-with-savepoint, run the job's jar again from it with {@code
 * pipeline.jobvertex-parallelism-overrides}, and on timeout cancel that run and start the jar again
 * from the same savepoint at the old parallelism. Either way it waits for the job to run all
 * subtasks at the new parallelism. A decision above a vertex's max parallelism (its key groups) or
 * a source's splits is refused before anything is touched. One rescale at a time; every rescale is
 * reported to the listeners.
 */
public final class FlinkRescaler implements ScalingRealizer, AutoCloseable {
    private final FlinkJobRef job;
    private final Optional<JarResubmission> jar;
    private final Duration timeout;
    private final Clock clock;
    private final List<Consumer<RescaleReport>> listeners;
    private final FlinkSteps steps;
    private final ExecutorService executor =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "flink-rescaler");
                        t.setDaemon(true);
                        return t;
                    });
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile Optional<Duration> lastInputCost = Optional.empty();

    /**
     * @param jar how to start the job again on the savepoint path; empty: only in-place rescales
     * @param timeout how long the job may take to run at the new parallelism (and again to roll
     *     back)
     */
    public FlinkRescaler(
            FlinkJobRef job,
            Optional<JarResubmission> jar,
            Duration timeout,
            Clock clock,
            List<Consumer<RescaleReport>> listeners) {
        this.job = job;
        this.jar = jar;
        this.timeout = timeout;
        this.clock = clock;
        this.listeners = List.copyOf(listeners);
        this.steps = new FlinkSteps(job, clock);
    }

    @Override
    public CompletionStage<Void> realize(ScalingDecision decision) {
        Map<String, Integer> changes = new LinkedHashMap<>();
        decision.operators().values().stream()
                .filter(OperatorDecision::changes)
                .forEach(op -> changes.put(op.operatorId(), op.newParallelism()));
        if (!decision.isScale() || changes.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        if (!inFlight.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(
                    new FlinkConnectorException(
                            "a rescale of " + job + " is in progress; decide again once it ended"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        executor.execute(() -> run(changes, done));
        return done;
    }

    @Override
    public String pathOf(ScalingDecision decision) {
        try {
            return new FlinkCalls(job.rest()).adaptive(job.read())
                    ? RescaleRecord.IN_PLACE
                    : RescaleRecord.RESTART;
        } catch (FlinkConnectorException e) {
            return RescaleRecord.RESTART;
        }
    }

    /**
     * The input the latest successful rescale cost: in place, from the trigger of the checkpoint
     * the job restarted from until it ran again; through a savepoint, empty (the job resumes where
     * it stopped, so its downtime is its cost).
     */
    @Override
    public Optional<Duration> lastInputCost() {
        return lastInputCost;
    }

    public boolean inProgress() {
        return inFlight.get();
    }

    private void run(Map<String, Integer> changes, CompletableFuture<Void> done) {
        lastInputCost = Optional.empty();
        RescaleReport report;
        Instant started = clock.instant();
        Map<String, Integer> from = Map.of(); // until Flink answers
        try {
            FlinkJob now = job.read();
            from = now.parallelism();
            report = rescale(now, changes, started);
        } catch (RuntimeException e) {
            Map<String, Integer> to = new LinkedHashMap<>(from);
            to.putAll(changes);
            report = report(job.jobId(), "unknown", from, to, null, started, e.getMessage());
        }
        for (Consumer<RescaleReport> listener : listeners) {
            listener.accept(report);
        }
        inFlight.set(false);
        if (report.succeeded()) {
            done.complete(null);
        } else {
            done.completeExceptionally(new FlinkConnectorException(report.summary()));
        }
    }

    private RescaleReport rescale(FlinkJob now, Map<String, Integer> changes, Instant started) {
        Map<String, Integer> from = now.parallelism();
        Map<String, Integer> to = new LinkedHashMap<>(from);
        to.putAll(changes);
        Optional<String> refused = RescaleLimits.check(job, now, changes);
        if (refused.isPresent()) {
            return report(now.name(), "none", from, to, null, started, refused.get());
        }
        if (new FlinkCalls(job.rest()).adaptive(now)) {
            return inPlace(now, from, to, started);
        }
        if (jar.isEmpty()) {
            return report(
                    now.name(),
                    RescaleRecord.RESTART,
                    from,
                    to,
                    null,
                    started,
                    "the job runs Flink's "
                            + now.scheduler().orElse("default")
                            + " scheduler, which cannot rescale in place, and no jar was given to"
                            + " resubmit it from a savepoint; run it with jobmanager.scheduler:"
                            + " adaptive or pass --jar");
        }
        return throughSavepoint(now, from, to, started);
    }

    /**
     * Lets the job complete a fresh checkpoint first (bounded; {@link RescaleCheckpoint}), then
     * sets the resource requirements and waits for the job to run at them.
     */
    private RescaleReport inPlace(
            FlinkJob now, Map<String, Integer> from, Map<String, Integer> to, Instant started) {
        Map<String, Integer> target = FlinkCalls.byVertex(now, to);
        RescaleCheckpoint checkpoints = new RescaleCheckpoint(job, clock);
        RescaleCheckpoint.Before before = checkpoints.prepare(timeout.dividedBy(2));
        Instant put = clock.instant();
        steps.requireParallelism(target);
        Optional<String> failed = steps.awaitRunning(target, clock.instant().plus(timeout));
        if (failed.isEmpty()) {
            Instant running = clock.instant();
            Optional<Duration> cost = checkpoints.inputCost(before, put, running);
            lastInputCost = cost;
            return report(now.name(), RescaleRecord.IN_PLACE, from, to, null, started, null)
                    .withCheckpoint(cost, before.note(), Duration.between(put, running));
        }
        String rollback =
                rollBack(
                        () -> steps.requireParallelism(FlinkCalls.byVertex(now, from)),
                        FlinkCalls.byVertex(now, from));
        return report(
                        now.name(),
                        RescaleRecord.IN_PLACE,
                        from,
                        to,
                        null,
                        started,
                        failed.get() + "; " + rollback)
                .withCheckpoint(Optional.empty(), before.note(), null);
    }

    private RescaleReport throughSavepoint(
            FlinkJob now, Map<String, Integer> from, Map<String, Integer> to, Instant started) {
        String savepoint = steps.stopWithSavepoint(clock.instant().plus(timeout));
        Map<String, Integer> target = FlinkCalls.byVertex(now, to);
        Optional<String> failed;
        try {
            job.moveTo(steps.run(jar.orElseThrow(), savepoint, target));
            failed = steps.awaitRunning(target, clock.instant().plus(timeout), true);
        } catch (FlinkConnectorException e) {
            failed = Optional.of(e.getMessage());
        }
        if (failed.isEmpty()) {
            return report(now.name(), RescaleRecord.RESTART, from, to, savepoint, started, null);
        }
        String rollback =
                rollBack(
                        () -> {
                            steps.cancelRunsSince(
                                    now.name(), started, clock.instant().plus(timeout));
                            job.moveTo(
                                    steps.run(
                                            jar.orElseThrow(),
                                            savepoint,
                                            FlinkCalls.byVertex(now, from)));
                        },
                        FlinkCalls.byVertex(now, from));
        return report(
                now.name(),
                RescaleRecord.RESTART,
                from,
                to,
                savepoint,
                started,
                failed.get() + "; " + rollback);
    }

    /** Starts the rollback; says where the job runs now, or that it may not run at all. */
    private String rollBack(Runnable start, Map<String, Integer> old) {
        Instant deadline = clock.instant().plus(timeout);
        String error = "";
        while (clock.instant().isBefore(deadline)) {
            try {
                start.run();
                Optional<String> failed = steps.awaitRunning(old, clock.instant().plus(timeout));
                return failed.map(why -> "the rollback to the old parallelism failed too: " + why)
                        .orElse("rolled back: the job runs at its old parallelism again");
            } catch (FlinkConnectorException e) {
                error = e.getMessage();
                pause();
            }
        }
        return "the rollback to the old parallelism could not start by "
                + deadline
                + ": "
                + error
                + "; check the job in Flink";
    }

    private static void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkConnectorException("interrupted while rolling back", e);
        }
    }

    private RescaleReport report(
            String name,
            String path,
            Map<String, Integer> from,
            Map<String, Integer> to,
            String savepoint,
            Instant started,
            String failure) {
        return new RescaleReport(
                name,
                started,
                from,
                to,
                Optional.ofNullable(savepoint),
                Duration.between(started, clock.instant()),
                Optional.ofNullable(failure),
                path,
                Optional.empty(),
                "");
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
