package dev.flowscale.operator.flink;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.operator.core.ParallelismText;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows the Flink job a StreamJob targets in its status, Events and metrics as the runner is shown
 * for the embedded engine: {@code status.parallelism} (and its summary) as Flink runs it, from
 * every sample; while a decision is carried out, condition Scaling True; once it is over, {@code
 * status.lastRescale}, condition Scaling False (Rescaled or RescaleFailed), and through {@link
 * RescaleReporting} a Rescaled or RescaleFailed Event, the path-downtime timer and the loop's
 * rescale metrics. The reconciler reports the rescales it carries out (a runner's, a session
 * cluster's job's); this does it for a FlinkDeployment target's loop, which writes the overrides
 * itself.
 */
public final class FlinkTargetStatus {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkTargetStatus.class);
    private final JobStatusStore store;
    private final RescaleReporting reporting;
    private final String namespace;
    private final String name;
    private final Clock clock;
    private volatile Map<String, Integer> shown;

    public FlinkTargetStatus(
            JobStatusStore store,
            RescaleReporting reporting,
            String namespace,
            String name,
            Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.reporting = Objects.requireNonNull(reporting, "reporting");
        this.namespace = namespace;
        this.name = name;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A new loop starts: a condition Scaling still True was left by a loop that stopped during its
     * rescale (an operator restart, a leader change), whose end no one will report; it becomes
     * False with reason RescaleInterrupted, so status does not claim a rescale in progress forever.
     */
    void loopStarted() {
        try {
            StreamJob job = store.latest(namespace, name);
            if (job != null
                    && job.getStatus() != null
                    && Conditions.isTrue(job.getStatus(), Conditions.SCALING)) {
                store.edit(namespace, name, this::interrupted); // checks again on the latest
            }
        } catch (RuntimeException e) { // status only; the loop runs anyway
            LOG.warn(
                    "StreamJob {}/{}: cannot clear an interrupted rescale: {}", namespace, name, e);
        }
    }

    private void interrupted(StreamJobStatus status) {
        if (Conditions.isTrue(status, Conditions.SCALING)) {
            Conditions.set(
                    status,
                    Conditions.SCALING,
                    false,
                    "RescaleInterrupted",
                    "the autoscaler loop stopped during a rescale of the Flink job (operator restart"
                            + " or leader change); status.parallelism shows what Flink runs now",
                    status.observedGeneration,
                    clock.instant());
        }
    }

    /** {@code source}, whose every sample also updates status.parallelism when it changed. */
    MetricsSource observing(MetricsSource source) {
        return new MetricsSource() {
            @Override
            public MetricsSample sample() {
                MetricsSample sample = source.sample();
                observed(parallelism(sample));
                return sample;
            }

            @Override
            public String describe() {
                return source.describe();
            }
        };
    }

    /**
     * {@code realizer}, whose rescales are shown in status, Events and metrics.
     *
     * @param path how a decision is carried out, as status.lastRescale.path names it
     */
    ScalingRealizer reporting(ScalingRealizer realizer, Function<ScalingDecision, String> path) {
        return ScalingRealizer.wrapping(
                realizer,
                decision -> {
                    Instant start = clock.instant();
                    Rescale rescale = Rescale.of(decision, path.apply(decision));
                    started(rescale);
                    return realizer.realize(decision)
                            .whenComplete((done, failure) -> finished(rescale, start, failure));
                });
    }

    /** A decision's parallelism before and after, per operator, and the path it takes. */
    private record Rescale(Map<String, Integer> from, Map<String, Integer> to, String path) {
        static Rescale of(ScalingDecision decision, String path) {
            Map<String, Integer> from = new TreeMap<>();
            Map<String, Integer> to = new TreeMap<>();
            for (OperatorDecision op : decision.operators().values()) {
                from.put(op.operatorId(), op.currentParallelism());
                to.put(op.operatorId(), op.newParallelism());
            }
            return new Rescale(from, to, path);
        }
    }

    private void observed(Map<String, Integer> now) {
        if (now.equals(shown)) {
            return;
        }
        try {
            store.edit(namespace, name, status -> show(status, now));
            shown = now;
        } catch (RuntimeException e) { // the sample is good; the next one tries again
            LOG.warn("StreamJob {}/{}: cannot record its parallelism: {}", namespace, name, e);
        }
    }

    private void started(Rescale rescale) {
        try {
            store.edit(
                    namespace,
                    name,
                    status ->
                            Conditions.set(
                                    status,
                                    Conditions.SCALING,
                                    true,
                                    rescale.path(),
                                    "changing the Flink job (autoscaler) to "
                                            + ParallelismText.summary(rescale.to()),
                                    status.observedGeneration,
                                    clock.instant()));
        } catch (RuntimeException e) { // the rescale goes on; its end is reported
            LOG.warn("StreamJob {}/{}: cannot record a rescale start: {}", namespace, name, e);
        }
    }

    private void finished(Rescale rescale, Instant start, Throwable failure) {
        try {
            RescaleOutcome outcome = outcome(rescale, start, failure);
            StreamJob job = store.edit(namespace, name, status -> record(status, outcome));
            if (job != null) {
                reporting.finished(job, outcome);
            }
        } catch (RuntimeException e) { // never fail the stage the loop waits on
            LOG.warn("StreamJob {}/{}: cannot report a rescale: {}", namespace, name, e);
        }
    }

    private RescaleOutcome outcome(Rescale rescale, Instant start, Throwable failure) {
        Instant now = clock.instant();
        RescaleOutcome outcome = new RescaleOutcome();
        outcome.time = now.toString();
        outcome.path = rescale.path();
        outcome.downtimeSeconds = Duration.between(start, now).toNanos() / 1e9;
        outcome.succeeded = failure == null;
        outcome.from = rescale.from();
        outcome.to = rescale.to();
        outcome.message =
                RescaleReporting.message(
                        outcome,
                        failure == null
                                ? "the Flink job runs at it"
                                : "the Flink job does not run at it: "
                                        + cause(failure).getMessage());
        return outcome;
    }

    private void record(StreamJobStatus status, RescaleOutcome outcome) {
        outcome.generation = status.observedGeneration;
        status.lastRescale = outcome;
        if (outcome.succeeded) {
            show(status, outcome.to);
            shown = outcome.to;
        }
        Conditions.set(
                status,
                Conditions.SCALING,
                false,
                outcome.succeeded ? "Rescaled" : "RescaleFailed",
                outcome.message,
                status.observedGeneration,
                clock.instant());
    }

    private static void show(StreamJobStatus status, Map<String, Integer> parallelism) {
        status.parallelism = new TreeMap<>(parallelism);
        status.parallelismSummary = ParallelismText.summary(parallelism);
    }

    static Map<String, Integer> parallelism(MetricsSample sample) {
        Map<String, Integer> result = new TreeMap<>();
        for (OperatorSpec op : sample.topology().operators()) {
            result.put(op.id(), op.parallelism());
        }
        return result;
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
    }
}
