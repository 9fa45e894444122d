package dev.flowscale.policy.loop;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Checks;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsProvider;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.RecordingRealizer;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.ScalingRealizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The autoscaler loop. Each {@link #tick()} that falls on or after the next policy interval asks
 * the {@link MetricsProvider} for the current window, the {@link ScalingPolicy} for a decision,
 * publishes it to every {@link DecisionListener}, and in {@link Mode#AUTO} hands a SCALE decision
 * to the {@link ScalingRealizer}. It keeps a bounded history of decisions and rescales, with how
 * long each rescale took: a realizer's stage ends its rescale, except a {@link
 * RecordingRealizer}'s, which only records the target; the loop then reads the rescale's end from
 * it on every tick. Errors of the policy, listeners and realizer go to the error handler and are
 * counted; the loop keeps running.
 */
public final class AutoscalerLoop {

    private final AutoscalerConfig config;
    private final ScalingPolicy policy;
    private final MetricsProvider metrics;
    private final ScalingRealizer realizer;
    private final RecordingRealizer recording; // the realizer when it only records; else null
    private final List<DecisionListener> listeners;
    private final Clock clock;
    private final Consumer<Throwable> errorHandler;
    private final BoundedHistory history;
    private Instant nextEvaluation;
    private long errors;

    public AutoscalerLoop(
            AutoscalerConfig config,
            ScalingPolicy policy,
            MetricsProvider metrics,
            ScalingRealizer realizer,
            List<DecisionListener> listeners,
            Clock clock,
            Consumer<Throwable> errorHandler) {
        this.config = Checks.notNull(config, "autoscaler config");
        this.policy = Checks.notNull(policy, "autoscaler policy");
        this.metrics = Checks.notNull(metrics, "autoscaler metrics provider");
        this.realizer = Checks.notNull(realizer, "autoscaler realizer");
        this.recording = realizer instanceof RecordingRealizer r ? r : null;
        this.listeners = List.copyOf(listeners);
        this.clock = Checks.notNull(clock, "autoscaler clock");
        this.errorHandler = Checks.notNull(errorHandler, "autoscaler error handler");
        this.history = new BoundedHistory(config.historySize());
    }

    /**
     * Resumes from a memory an earlier loop of the job stored (its {@link #history()}), before the
     * first tick: the next decision falls one policy interval after the stored last one. A rescale
     * it holds as started is followed through a {@link RecordingRealizer}'s record; any other
     * realizer cannot follow it, so it is recorded as failed (its downtime is not learned).
     */
    public synchronized void restore(ScalingHistory stored) {
        Checks.notNull(stored, "stored autoscaler history");
        if (!history.isEmpty()) {
            throw new PolicyException(
                    "the autoscaler loop already decided; restore its stored history before the"
                            + " first tick");
        }
        history.restore(stored);
        ScalingDecision last = history.lastDecision();
        nextEvaluation = last == null ? null : last.time().plus(config.policyInterval());
        RescaleRecord rescale = history.lastRescale();
        if (rescale != null && rescale.inProgress() && recording == null) {
            finished(
                    new PolicyException(
                            "the rescale to "
                                    + rescale.target()
                                    + " started at "
                                    + rescale.started()
                                    + " by an earlier autoscaler loop cannot be followed by this"
                                    + " realizer"));
        }
    }

    /**
     * Decides if the policy interval has elapsed since the last decision; returns that decision.
     */
    public synchronized Optional<ScalingDecision> tick() {
        followRecorded();
        Instant now = clock.instant();
        if (nextEvaluation != null && now.isBefore(nextEvaluation)) {
            return Optional.empty();
        }
        nextEvaluation = now.plus(config.policyInterval());
        try {
            ScalingDecision decision = decide(now);
            history.add(decision);
            listeners.forEach(listener -> publish(listener, decision));
            if (config.mode() == Mode.AUTO && decision.isScale()) {
                realize(decision, now);
            }
            return Optional.of(decision);
        } catch (RuntimeException | Error e) {
            onError(e);
            return Optional.empty();
        }
    }

    private ScalingDecision decide(Instant now) {
        JobTopology topology = metrics.topology();
        Optional<MetricsWindow> window = metrics.currentWindow();
        if (window.isEmpty()) {
            return ScalingDecision.blocked(
                    now,
                    topology.jobName(),
                    BlockReason.METRICS_MISSING,
                    "no complete metrics window is available yet");
        }
        history.observed(window.get());
        return policy.decide(topology, window.get(), history.snapshot());
    }

    private void publish(DecisionListener listener, ScalingDecision decision) {
        try {
            listener.onDecision(decision);
        } catch (RuntimeException e) {
            onError(e);
        }
    }

    private void realize(ScalingDecision decision, Instant now) {
        history.started(
                RescaleRecord.started(now, decision.newParallelism(), realizer.pathOf(decision)));
        try {
            realizer.realize(decision)
                    .whenComplete(
                            (ok, failure) -> {
                                if (failure != null || recording == null) {
                                    finished(failure);
                                }
                            });
        } catch (RuntimeException e) {
            finished(e);
        }
    }

    /** Reads the end of a recorded rescale in progress, as its executor recorded it. */
    private void followRecorded() {
        RescaleRecord current = history.lastRescale();
        if (recording == null || current == null || !current.inProgress()) {
            return;
        }
        try {
            recording.outcome(current).ifPresent(history::finished);
        } catch (RuntimeException e) {
            onError(e);
        }
    }

    private synchronized void finished(Throwable failure) {
        RescaleRecord current = history.lastRescale();
        if (current != null && current.inProgress()) {
            RescaleRecord done = current.finishedAt(clock.instant(), failure != null);
            history.finished(failure == null ? done.withInputCost(inputCost()) : done);
        }
        if (failure != null) {
            onError(failure);
        }
    }

    private Optional<Duration> inputCost() {
        try {
            return realizer.lastInputCost();
        } catch (RuntimeException e) {
            onError(e);
            return Optional.empty();
        }
    }

    private synchronized void onError(Throwable t) {
        errors++;
        errorHandler.accept(t);
    }

    /** Decisions and rescales remembered so far. */
    public synchronized ScalingHistory history() {
        return history.snapshot();
    }

    /** How long each finished rescale in the history took, oldest first. */
    public synchronized List<Duration> rescaleDurations() {
        return history.snapshot().rescales().stream().flatMap(r -> r.duration().stream()).toList();
    }

    /** Errors raised by the policy, listeners or realizer so far. */
    public synchronized long errorCount() {
        return errors;
    }
}
