package dev.flowscale.operator;

import dev.flowscale.operator.RunnerControl.RunnerState;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The one actor that changes a StreamJob's runner, level-triggered: each pass compares what
 * should run (spec, overlaid with the parallelism the autoscaler recorded in status) with what
 * runs, and takes one path for every change, whoever asked for it (a spec edit, an autoscaler
 * decision, suspend, an operator release whose pod template differs): record the change in status
 * → stop with a savepoint → record the savepoint → apply → observe readiness → on timeout roll
 * back from the same savepoint. A change of parallelism that the pod's resources cover is made
 * inside the running runner instead ({@link PendingChange#IN_PLACE}); anything else replaces the
 * pod. A change in status is carried on by the next pass, also after an operator restart.
 */
final class RunnerExecutor {
    static final Duration PENDING_RECHECK = Duration.ofSeconds(1);
    private final RunnerCluster cluster;
    private final RunnerControl control;
    private final JobEvents events;
    private final RescaleReporting reporting;
    private final Duration timeout;
    private final Clock clock;

    RunnerExecutor(RunnerCluster cluster, RunnerControl control, JobEvents events, RescaleReporting reporting,
                   Duration timeout, Clock clock) {
        this.cluster = cluster;
        this.control = control;
        this.events = events;
        this.reporting = reporting;
        this.timeout = timeout;
        this.clock = clock;
    }

    /** One pass; returns how soon to look again (null: on the next event). */
    Duration execute(ReconcileStatus pass, Optional<Deployment> existing) {
        StreamJobStatus st = pass.status();
        if (st.pending != null) {
            return new PendingSteps(pass, existing).carryOn();
        }
        Map<String, Integer> target = target(pass.job());
        if (existing.isEmpty()) {
            deploy(pass, target, st.lastSavepoint, null);
            return null;
        }
        if (st.deployedParallelism.isEmpty()) {
            adopt(pass, target); // a runner an earlier operator release deployed
        }
        boolean ready = ready(existing);
        if (!ready || pass.job().getSpec().suspend && replicas(existing) == 0) {
            return notRunning(pass, existing.get(), target);
        }
        String reason = changeReason(pass, existing.get(), target);
        if (reason == null) {
            return null;
        }
        boolean templateChanged = !reason.equals("autoscaler") && !reason.equals("spec-parallelism");
        if (!templateChanged && PodSizing.covers(pass.job().getSpec().resources, st.deployedParallelism, target)) {
            return new PendingSteps(pass, existing).inPlace(reason, target);
        }
        return new PendingSteps(pass, existing).replacePod(reason, target);
    }

    /**
     * Why the running runner must change, or null: the pod template differs (the spec or the
     * operator changed it: "spec", "suspend", "upgrade"), or only the parallelism does.
     */
    private String changeReason(ReconcileStatus pass, Deployment existing, Map<String, Integer> target) {
        StreamJobStatus st = pass.status();
        StreamJob job = pass.job();
        if (!cluster.upToDate(RunnerDeployment.desired(job, st.deployedParallelism, st.deployedSavepoint), existing)) {
            boolean newSpec = !java.util.Objects.equals(st.observedGeneration, job.getMetadata().getGeneration());
            return job.getSpec().suspend ? "suspend" : newSpec ? "spec" : "upgrade";
        }
        if (target.equals(st.parallelism) || failedBefore(pass, target)) {
            return null;
        }
        return target.equals(job.getSpec().parallelism) || st.desiredParallelism.isEmpty()
                ? "spec-parallelism" : "autoscaler";
    }

    /** A target that failed for this generation is not tried again until the spec or the target changes. */
    private static boolean failedBefore(ReconcileStatus pass, Map<String, Integer> target) {
        var last = pass.status().lastRescale;
        return last != null && !last.succeeded && target.equals(last.to)
                && java.util.Objects.equals(last.generation, pass.job().getMetadata().getGeneration());
    }

    /**
     * No runner runs the job: one that lingers stopped (its stop reply was lost, or it was stopped
     * by hand) is restarted from its own savepoint; otherwise the desired runner is applied, as
     * there is no state to save first. A runner that answers RUNNING is not ready yet: wait.
     */
    private Duration notRunning(ReconcileStatus pass, Deployment existing, Map<String, Integer> target) {
        Optional<RunnerState> state = state(pass.job());
        if (state.isPresent() && state.get().status().equals("RUNNING")) {
            return PENDING_RECHECK;
        }
        if (state.isPresent() && !pass.job().getSpec().suspend) {
            Optional<String> savepoint = snapshot(pass.job());
            if (savepoint.isPresent() && !savepoint.get().equals(pass.status().deployedSavepoint)) {
                events.normal(pass.job(), JobEvents.STRANDED_RUNNER, "runner " + RunnerResources.runnerName(pass.job())
                        + " is " + state.get().status() + ": restarting it from its savepoint " + savepoint.get());
                pass.write(st -> st.lastSavepoint = savepoint.get());
            }
        }
        deploy(pass, target, pass.status().lastSavepoint, existing);
        return null;
    }

    /** Takes over a runner whose status does not say how it was deployed: as it runs now. */
    private static void adopt(ReconcileStatus pass, Map<String, Integer> target) {
        pass.write(st -> {
            st.deployedParallelism = new TreeMap<>(st.parallelism.isEmpty() ? target : st.parallelism);
            st.deployedSavepoint = st.lastSavepoint;
            if (st.parallelism.isEmpty()) {
                st.parallelism = new TreeMap<>(target);
            }
        });
    }

    private void deploy(ReconcileStatus pass, Map<String, Integer> parallelism, String savepoint, Deployment existing) {
        cluster.apply(RunnerDeployment.desired(pass.job(), parallelism, savepoint), existing);
        pass.write(st -> {
            st.deployedParallelism = new TreeMap<>(parallelism);
            st.deployedSavepoint = savepoint;
            st.parallelism = new TreeMap<>(parallelism);
        });
    }

    /**
     * The parallelism the runner should run at: the spec's, overlaid with what the autoscaler
     * recorded (kept when the mode changes, so auto → recommend does not restart the job), except
     * for operators whose spec.parallelism the user changed since it was last applied.
     */
    static Map<String, Integer> target(StreamJob job) {
        StreamJobStatus st = ReconcileStatus.statusOf(job);
        Map<String, Integer> target = new TreeMap<>(job.getSpec().parallelism);
        st.desiredParallelism.forEach((op, p) -> {
            if (st.specParallelism.isEmpty()
                    || java.util.Objects.equals(st.specParallelism.get(op), job.getSpec().parallelism.get(op))) {
                target.put(op, p);
            }
        });
        return target;
    }

    static boolean ready(Optional<Deployment> deployment) {
        return deployment.map(Deployment::getStatus).map(s -> s.getReadyReplicas()).orElse(0) > 0;
    }

    private static int replicas(Optional<Deployment> deployment) {
        return deployment.map(d -> d.getSpec().getReplicas()).orElse(0);
    }

    private Optional<RunnerState> state(StreamJob job) {
        try {
            return Optional.of(control.state(job));
        } catch (OperatorException unreachable) {
            return Optional.empty();
        }
    }

    private Optional<String> snapshot(StreamJob job) {
        try {
            return control.latestSnapshot(job);
        } catch (OperatorException unreachable) {
            return Optional.empty();
        }
    }

    /** The steps of one change recorded in status.pending. */
    private final class PendingSteps {
        private final ReconcileStatus pass;
        private final Optional<Deployment> existing;

        PendingSteps(ReconcileStatus pass, Optional<Deployment> existing) {
            this.pass = pass;
            this.existing = existing;
        }

        Duration inPlace(String reason, Map<String, Integer> target) {
            record(reason, PendingChange.IN_PLACE, target);
            try {
                RunnerControl.InPlaceRescale done = control.rescale(pass.job(), target);
                pass.write(st -> st.lastSavepoint = done.savepoint());
                finish(true, target, done.downtime(), "through savepoint " + done.savepoint() + "; the pod stays");
            } catch (OperatorException e) {
                return carryOnInPlace(e.getMessage());
            }
            return null;
        }

        Duration replacePod(String reason, Map<String, Integer> target) {
            record(reason, PendingChange.POD_REPLACEMENT, target);
            String savepoint;
            try {
                savepoint = control.stopWithSavepoint(pass.job());
            } catch (OperatorException e) {
                // The runner may have stopped and the reply been lost: the next pass asks it.
                return PENDING_RECHECK;
            }
            savepointTaken(savepoint, "stopped with savepoint");
            return carryOn();
        }

        private void record(String reason, String path, Map<String, Integer> target) {
            Long generation = pass.job().getMetadata().getGeneration();
            pass.write(st -> {
                PendingChange change = new PendingChange();
                change.reason = reason;
                change.path = path;
                change.from = new TreeMap<>(st.parallelism);
                change.to = new TreeMap<>(target);
                change.started = clock.instant().toString();
                change.generation = generation;
                st.pending = change;
            });
        }

        private void savepointTaken(String savepoint, String how) {
            pass.write(st -> {
                st.pending.savepoint = savepoint;
                st.lastSavepoint = savepoint;
            });
            PendingChange c = pass.status().pending;
            events.normal(pass.job(), JobEvents.SAVEPOINT_UPGRADE, "runner " + RunnerResources.runnerName(pass.job())
                    + " " + how + " " + savepoint + " (" + c.reason + ", generation " + c.generation + ")"
                    + (pass.job().getSpec().suspend ? "; suspended" : "; the new runner restores from it"));
        }

        /** Carries on the change in status.pending from where the last pass (or operator) left it. */
        Duration carryOn() {
            PendingChange c = pass.status().pending;
            if (PendingChange.IN_PLACE.equals(c.path)) {
                return carryOnInPlace("the operator restarted during the in-place rescale");
            }
            if (c.savepoint == null) {
                return findSavepoint();
            }
            boolean back = Boolean.TRUE.equals(c.rollingBack);
            Map<String, Integer> parallelism = back ? c.from : c.to;
            if (!pass.job().getSpec().suspend && ready(existing)
                    && state(pass.job()).map(s -> s.runs(parallelism)).orElse(false)) {
                // The new runner runs: finish before applying anything newer (a spec edit since then
                // gets a savepoint of its own). Until it runs, a newer spec joins this restore.
                return observe(parallelism, back);
            }
            Deployment desired = RunnerDeployment.desired(pass.job(), parallelism, c.savepoint);
            cluster.apply(desired, existing.orElse(null));
            pass.write(st -> {
                st.deployedParallelism = new TreeMap<>(parallelism);
                st.deployedSavepoint = c.savepoint;
            });
            return observe(parallelism, back);
        }

        private Duration observe(Map<String, Integer> parallelism, boolean back) {
            if (pass.job().getSpec().suspend) {
                finish(true, parallelism, elapsed(), "suspended with savepoint " + pass.status().pending.savepoint);
                return null;
            }
            if (ready(existing) && state(pass.job()).map(s -> s.runs(parallelism)).orElse(false)) {
                PendingChange c = pass.status().pending;
                finish(!back, parallelism, elapsed(), back ? "the runner at " + c.to + " was not ready within "
                        + timeout + "; rolled back to " + c.from + " from the same savepoint " + c.savepoint
                        : "restored from savepoint " + c.savepoint + " in a new pod");
                return null;
            }
            if (!back && elapsed().compareTo(timeout) > 0) {
                pass.write(st -> st.pending.rollingBack = true);
                return carryOn();
            }
            return PENDING_RECHECK;
        }

        /** The stop's reply did not arrive: ask the runner whether it stopped, and with which savepoint. */
        private Duration findSavepoint() {
            Optional<RunnerState> state = state(pass.job());
            if (state.isEmpty()) {
                return PENDING_RECHECK;
            }
            if (state.get().status().equals("RUNNING")) {
                pass.write(st -> st.pending = null); // it never stopped: the next pass starts again
                return Duration.ZERO;
            }
            Optional<String> savepoint = snapshot(pass.job());
            if (savepoint.isEmpty()) {
                return PENDING_RECHECK;
            }
            savepointTaken(savepoint.get(), "had stopped (its reply was lost) with savepoint");
            return carryOn();
        }

        /** After an in-place request failed or went unanswered: what does the runner run now? */
        private Duration carryOnInPlace(String why) {
            PendingChange c = pass.status().pending;
            Optional<RunnerState> state = state(pass.job());
            if (state.isPresent() && state.get().runs(c.to)) {
                finish(true, c.to, elapsed(), "confirmed by the runner after: " + why);
            } else if (state.isPresent() && state.get().status().equals("RUNNING")) {
                finish(false, c.from, elapsed(), why + "; the job runs on at " + state.get().parallelism());
            } else if (elapsed().compareTo(timeout) > 0) {
                pass.write(st -> {
                    st.pending.path = PendingChange.POD_REPLACEMENT;
                    st.pending.rollingBack = true;
                });
                return carryOn(); // the runner is gone or stopped: restore the old parallelism in a new pod
            } else {
                return PENDING_RECHECK;
            }
            return null;
        }

        private Duration elapsed() {
            return Duration.between(Instant.parse(pass.status().pending.started), clock.instant());
        }

        private void finish(boolean succeeded, Map<String, Integer> parallelism, Duration downtime, String detail) {
            PendingChange c = pass.status().pending;
            var outcome = new dev.flowscale.operator.api.RescaleOutcome();
            outcome.time = clock.instant().toString();
            outcome.path = c.path;
            outcome.downtimeSeconds = downtime.toNanos() / 1e9;
            outcome.succeeded = succeeded;
            outcome.from = c.from;
            outcome.to = c.to;
            outcome.generation = c.generation;
            outcome.message = RescaleReporting.message(outcome, detail);
            pass.write(st -> {
                st.parallelism = new TreeMap<>(parallelism);
                st.lastRescale = c.from.equals(c.to) ? st.lastRescale : outcome;
                st.pending = null;
                if (!succeeded && "autoscaler".equals(c.reason)) {
                    st.desiredParallelism.putAll(parallelism); // the autoscaler decides again from what runs
                }
            });
            if (!c.from.equals(c.to)) {
                reporting.finished(pass.job(), outcome);
            }
        }
    }
}
