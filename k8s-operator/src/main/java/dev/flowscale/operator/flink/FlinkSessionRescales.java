package dev.flowscale.operator.flink;

import dev.flowscale.flink.FlinkCalls;
import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ParallelismText;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.policy.api.RescaleRecord;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's pass for a StreamJob that scales a job on a Flink session cluster (spec.flink.
 * restUrl): the autoscaler loop only records its target ({@code status.desiredParallelism} and
 * {@code desiredRequest}); each pass carries the rescale one step further without waiting, and
 * every step is recorded in {@code status.pending} before the next call, so that an operator
 * restarted or replaced by a new leader goes on where the last one was (as the Flink Kubernetes
 * operator keeps a savepoint upgrade's trigger and path in its resource's status). In place on the
 * adaptive scheduler: the job's resource requirements get the target as upper bound until it runs
 * there, else the old ones are put back. Otherwise through a savepoint ({@link
 * FlinkSavepointSteps}). The end is {@code status.lastRescale}, Event and metrics ({@link
 * FlinkRescaleEnd}).
 */
public final class FlinkSessionRescales {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkSessionRescales.class);

    /** How soon the next pass comes while a change is under way. */
    static final Duration STEP = Duration.ofSeconds(1);

    /** How soon a request is tried again when Flink did not answer. */
    static final Duration RETRY = Duration.ofSeconds(5);

    private final Function<StreamJob, Duration> timeout;
    private final FlinkRescaleEnd end;
    private final JobEvents events;
    private final Clock clock;
    private final Map<String, FlinkRestClient> clients = new ConcurrentHashMap<>();

    /**
     * @param timeout the job's rescale timeout (spec.timeouts.rescale or the operator's default)
     */
    public FlinkSessionRescales(
            Function<StreamJob, Duration> timeout,
            RescaleReporting reporting,
            JobEvents events,
            Clock clock) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.end = new FlinkRescaleEnd(reporting);
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Carries the job's rescale one step further; empty when there is none to carry out. */
    public Optional<Duration> step(ReconcileStatus pass) {
        StreamJobStatus status = pass.status();
        if (status.pending == null && FlinkInputCost.pending(status)) {
            FlinkInputCost.look(pass, client(pass.job()), clock);
            return Optional.of(STEP);
        }
        if (status.pending == null && !requested(status)) {
            return Optional.empty();
        }
        FlinkSessionStep step =
                new FlinkSessionStep(pass, client(pass.job()), timeout(pass), clock);
        try {
            if (status.pending == null) {
                start(step);
            } else {
                advance(step);
            }
            return Optional.of(STEP);
        } catch (FlinkConnectorException e) {
            LOG.warn(
                    "StreamJob {}: Flink did not answer a rescale step: {}",
                    key(pass),
                    e.getMessage());
            if (step.pending() != null && step.pastDeadline()) {
                gaveUp(step, e.getMessage());
            }
            return Optional.of(step.pending() == null ? RETRY : STEP);
        }
    }

    /** A request of the loop that no pass has settled yet. */
    private static boolean requested(StreamJobStatus status) {
        return status.desiredRequest != null
                && !status.desiredRequest.equals(status.settledRequest)
                && !status.desiredParallelism.isEmpty();
    }

    private void start(FlinkSessionStep step) {
        StreamJobStatus status = step.status();
        FlinkJob now = step.read(current(step));
        Map<String, Integer> from = new TreeMap<>(now.parallelism());
        Map<String, Integer> changes = new TreeMap<>();
        status.desiredParallelism.forEach(
                (op, p) -> {
                    if (from.containsKey(op) && !from.get(op).equals(p)) {
                        changes.put(op, p);
                    }
                });
        String request = status.desiredRequest;
        if (changes.isEmpty()) { // it runs there already
            step.pass().write(st -> st.settledRequest = request);
            return;
        }
        Map<String, Integer> to = new TreeMap<>(from);
        to.putAll(changes);
        String path = step.calls().adaptive(now) ? RescaleRecord.IN_PLACE : RescaleRecord.RESTART;
        // checked before the record: a check Flink does not answer leaves nothing half started
        Optional<String> refused =
                step.calls().refused(now, changes).or(() -> noJar(step, path, now));
        record(step, now.id(), path, from, to);
        if (refused.isPresent()) {
            end.finish(step, false, refused.get(), null);
            return;
        }
        advance(step);
    }

    /** The Flink job the StreamJob scales now: the run status names, else spec.flink.job's. */
    private static String current(FlinkSessionStep step) {
        FlinkTarget target = step.job().getSpec().flink;
        StreamJobStatus status = step.status();
        if (status.flinkJob != null && FlinkTargetJob.targetKey(target).equals(status.flinkJobOf)) {
            return status.flinkJob;
        }
        return FlinkJobRef.find(step.rest(), target.job).jobId();
    }

    private static Optional<String> noJar(FlinkSessionStep step, String path, FlinkJob now) {
        if (!RescaleRecord.RESTART.equals(path) || step.jar().isPresent()) {
            return Optional.empty();
        }
        return Optional.of(
                "the job runs Flink's "
                        + now.scheduler().orElse("default")
                        + " scheduler, which cannot rescale in place, and spec.flink.jar is not set"
                        + " to run it again from a savepoint; run it with jobmanager.scheduler:"
                        + " adaptive or set spec.flink.jar");
    }

    /** status.pending before anything is touched; Scaling True and phase Rescaling. */
    private void record(
            FlinkSessionStep step,
            String jobId,
            String path,
            Map<String, Integer> from,
            Map<String, Integer> to) {
        PendingChange change = new PendingChange();
        change.reason = "autoscaler";
        change.path = path;
        change.from = from;
        change.to = to;
        change.started = clock.instant().toString();
        change.request = step.status().desiredRequest;
        change.generation = step.job().getMetadata().getGeneration();
        change.flinkJob = jobId;
        change.checkpointTrigger =
                RescaleRecord.IN_PLACE.equals(path)
                        ? FlinkInputCost.latestTrigger(step.rest(), jobId)
                        : null;
        step.pass()
                .write(
                        status -> {
                            status.pending = change;
                            status.phase = JobPhase.Rescaling;
                            Conditions.set(
                                    status,
                                    Conditions.SCALING,
                                    true,
                                    path,
                                    "changing the Flink job (autoscaler) to "
                                            + ParallelismText.summary(to),
                                    status.observedGeneration,
                                    clock.instant());
                        });
    }

    private void advance(FlinkSessionStep step) {
        if (RescaleRecord.IN_PLACE.equals(step.pending().path)) {
            inPlace(step);
        } else {
            new FlinkSavepointSteps(step, end, events).advance();
        }
    }

    /**
     * Puts the target as the adaptive scheduler's upper bounds unless they are set already (an
     * operator that died between the record and the call puts them now), and waits for the job to
     * run there; on timeout the old bounds go back, and Flink keeps the job running throughout.
     */
    private void inPlace(FlinkSessionStep step) {
        PendingChange p = step.pending();
        FlinkCalls calls = step.calls();
        FlinkJob now = step.read(p.flinkJob);
        Map<String, Integer> target = FlinkCalls.byVertex(now, p.to);
        if (now.allVerticesRunning() && FlinkCalls.runsAt(now, target)) {
            end.finish(step, true, "the Flink job runs at it (adaptive scheduler)", p.flinkJob);
        } else if (step.pastDeadline()) {
            calls.requireParallelism(p.flinkJob, FlinkCalls.byVertex(now, p.from));
            end.finish(
                    step,
                    false,
                    "it did not run all subtasks at the parallelism asked for within "
                            + step.timeout()
                            + " (last seen: "
                            + now.state()
                            + " at "
                            + now.parallelism()
                            + "); its old resource requirements are back",
                    p.flinkJob);
        } else if (!calls.requiredParallelism(p.flinkJob).equals(target)) {
            calls.requireParallelism(p.flinkJob, target);
        }
    }

    /** Flink stopped answering past the deadline: roll back from the savepoint, or end failed. */
    private void gaveUp(FlinkSessionStep step, String why) {
        PendingChange p = step.pending();
        if (RescaleRecord.RESTART.equals(p.path) && p.savepoint != null && !step.rollingBack()) {
            FlinkSavepointSteps.beginRollback(step, "Flink's REST endpoint did not answer: " + why);
            return;
        }
        end.finish(
                step,
                false,
                "Flink's REST endpoint did not answer by the deadline: "
                        + why
                        + (p.savepoint == null
                                ? ""
                                : "; the job may not run: start spec.flink.jar from savepoint "
                                        + p.savepoint),
                null);
    }

    private Duration timeout(ReconcileStatus pass) {
        return timeout.apply(pass.job());
    }

    private FlinkRestClient client(StreamJob job) {
        String url = job.getSpec().flink.restUrl.trim();
        return clients.computeIfAbsent(
                url, u -> new FlinkRestClient(URI.create(u), FlinkTargetParts.REST_TIMEOUT));
    }

    private static String key(ReconcileStatus pass) {
        return pass.job().getMetadata().getNamespace() + "/" + pass.job().getMetadata().getName();
    }
}
