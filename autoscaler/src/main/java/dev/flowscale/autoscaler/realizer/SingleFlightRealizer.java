package dev.flowscale.autoscaler.realizer;

import dev.flowscale.policy.api.OperatorDecision;
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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the realizers share (the CLI's in-process one, and the runner-process one of the tests):
 * only SCALE decisions, only the operators whose parallelism changes, one rescale at a time on the
 * realizer's own thread (a decision that arrives meanwhile is refused with {@link
 * RescaleInProgressException}), and a {@link RescaleReport} to every listener before the stage
 * completes.
 */
public abstract class SingleFlightRealizer implements ScalingRealizer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SingleFlightRealizer.class);

    protected final Clock clock;
    protected final Duration timeout;
    private final List<RescaleListener> listeners;
    private final ExecutorService executor;
    private final AtomicBoolean inFlight = new AtomicBoolean();

    protected SingleFlightRealizer(
            String threadName, Duration timeout, Clock clock, List<RescaleListener> listeners) {
        if (timeout == null
                || timeout.isNegative()
                || timeout.isZero()
                || clock == null
                || listeners == null) {
            throw new RealizeException(
                    "realizer needs a timeout > 0, a clock and listeners; got timeout "
                            + timeout
                            + ", clock "
                            + clock
                            + ", listeners "
                            + listeners);
        }
        this.timeout = timeout;
        this.clock = clock;
        this.listeners = List.copyOf(listeners);
        this.executor =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, threadName);
                            t.setDaemon(true);
                            return t;
                        });
    }

    /**
     * Carries out one rescale on the realizer's thread; never throws, reports what happened
     * instead. Empty when the job already runs at the decided parallelism (nothing was done).
     */
    protected abstract Optional<RescaleReport> rescale(
            String job, Map<String, Integer> changes, Instant started);

    /** The changes that are not in effect yet: a decision realized twice rescales once. */
    protected static Map<String, Integer> pending(
            Map<String, Integer> changes, Map<String, Integer> current) {
        Map<String, Integer> pending = new LinkedHashMap<>(changes);
        pending.entrySet()
                .removeIf(change -> change.getValue().equals(current.get(change.getKey())));
        return pending;
    }

    @Override
    public final CompletionStage<Void> realize(ScalingDecision decision) {
        if (decision == null || !decision.isScale()) {
            return CompletableFuture.failedFuture(
                    new RealizeException(
                            "only SCALE decisions are realized; got "
                                    + (decision == null
                                            ? "null"
                                            : decision.outcome()
                                                    + " for job '"
                                                    + decision.jobName()
                                                    + "'")));
        }
        Map<String, Integer> changes = changesOf(decision);
        if (changes.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        if (!inFlight.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(
                    new RescaleInProgressException(decision.jobName(), changes));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            executor.execute(() -> run(decision.jobName(), changes, done));
        } catch (RejectedExecutionException e) {
            inFlight.set(false);
            done.completeExceptionally(
                    new RealizeException(
                            "realizer of job '"
                                    + decision.jobName()
                                    + "' is closed; create a new one",
                            e));
        }
        return done;
    }

    /** New parallelism of the operators whose parallelism changes, in the decision's order. */
    public static Map<String, Integer> changesOf(ScalingDecision decision) {
        Map<String, Integer> changes = new LinkedHashMap<>();
        decision.operators().values().stream()
                .filter(OperatorDecision::changes)
                .forEach(op -> changes.put(op.operatorId(), op.newParallelism()));
        return changes;
    }

    /** Whether a rescale is running now. */
    public boolean inProgress() {
        return inFlight.get();
    }

    private void run(String job, Map<String, Integer> changes, CompletableFuture<Void> done) {
        Instant started = clock.instant();
        Optional<RescaleReport> report;
        try {
            report = rescale(job, changes, started);
        } catch (RuntimeException | Error e) {
            report =
                    Optional.of(
                            RescaleReport.restart(
                                            job, started, Map.of(), changes, null, since(started))
                                    .failedBecause("unexpected error: " + e));
        }
        report.ifPresent(this::tell);
        inFlight.set(false);
        if (report.isEmpty() || report.get().succeeded()) {
            done.complete(null);
        } else {
            done.completeExceptionally(new RescaleFailedException(report.get(), null));
        }
    }

    protected Duration since(Instant started) {
        return Duration.between(started, clock.instant());
    }

    private void tell(RescaleReport report) {
        for (RescaleListener listener : listeners) {
            try {
                listener.onRescale(report);
            } catch (RuntimeException e) {
                LOG.warn("rescale listener {} failed on: {}", listener, report.summary(), e);
            }
        }
    }

    /** Stops the realizer's thread, waiting up to the rescale timeout for a rescale in flight. */
    @Override
    public void close() throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(timeout.toMillis() * 3, TimeUnit.MILLISECONDS);
    }
}
