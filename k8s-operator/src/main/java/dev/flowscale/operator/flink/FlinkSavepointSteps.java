package dev.flowscale.operator.flink;

import dev.flowscale.flink.FlinkCalls;
import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ParallelismText;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The savepoint path of a session target's rescale, one step per pass, each answer recorded in
 * {@code status.pending} before the next call: stop with a savepoint (its trigger id), the
 * savepoint's path once Flink has it, the id of the run started from it at the target (or of one
 * already started since the change began: a run whose answer was lost is adopted, never run twice),
 * then that run at the target. A run that does not get there, or fails, is canceled and the jar run
 * again from the same savepoint at the old parallelism.
 */
final class FlinkSavepointSteps {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkSavepointSteps.class);
    private final FlinkSessionStep step;
    private final FlinkRescaleEnd end;
    private final JobEvents events;

    FlinkSavepointSteps(FlinkSessionStep step, FlinkRescaleEnd end, JobEvents events) {
        this.step = step;
        this.end = end;
        this.events = events;
    }

    void advance() {
        PendingChange p = step.pending();
        if (p.savepoint == null) {
            stop(p);
        } else if (p.flinkRun == null) {
            run(p);
        } else {
            follow(p);
        }
    }

    /**
     * Triggers the stop, or asks how it went, until Flink says. A job found stopped with no trigger
     * recorded (the operator died between the stop and its record) names its savepoint in its
     * checkpoint statistics.
     */
    private void stop(PendingChange p) {
        FlinkCalls calls = step.calls();
        if (p.savepointTrigger == null) {
            FlinkJob old = step.read(p.flinkJob);
            if (old.running()) {
                String trigger = calls.triggerStop(p.flinkJob);
                step.writePending(pp -> pp.savepointTrigger = trigger);
                return;
            }
            Optional<String> latest = calls.latestSavepoint(p.flinkJob);
            if (latest.isPresent()) {
                recordSavepoint(latest.get());
            } else if (step.pastDeadline()) {
                end.finish(step, false, stoppedWithout(old), null);
            }
            return;
        }
        FlinkCalls.Savepoint savepoint = calls.savepoint(p.flinkJob, p.savepointTrigger);
        if (savepoint.location().isPresent()) {
            recordSavepoint(savepoint.location().get());
        } else if (savepoint.failure().isPresent()) {
            end.finish(
                    step,
                    false,
                    "stop-with-savepoint failed: "
                            + savepoint.failure().get()
                            + "; the job keeps running at its parallelism",
                    null);
        }
        // Still in progress: waited for past the rescale timeout too, since a job that stops
        // afterwards must be run again; Flink's checkpoint timeout ends the savepoint either way.
    }

    private static String stoppedWithout(FlinkJob old) {
        return "the Flink job is "
                + old.state()
                + " and names no savepoint; start spec.flink.jar again from its latest checkpoint";
    }

    private void recordSavepoint(String path) {
        step.pass()
                .write(
                        status -> {
                            if (status.pending != null) {
                                status.pending.savepoint = path;
                                status.lastSavepoint = path;
                            }
                        });
        events.normal(
                step.job(),
                JobEvents.SAVEPOINT_UPGRADE,
                "Flink job "
                        + step.pending().flinkJob
                        + " stopped with savepoint "
                        + path
                        + "; running spec.flink.jar again from it at "
                        + ParallelismText.summary(step.pending().to));
    }

    /** Adopts a run of this change, or starts the jar from the savepoint. */
    private void run(PendingChange p) {
        FlinkCalls calls = step.calls();
        FlinkJob old = step.read(p.flinkJob);
        if (step.rollingBack() && !failedRunsEnded(calls, old.name(), p)) {
            return;
        }
        Instant since = Instant.parse(step.rollingBack() ? p.rollbackStarted : p.started);
        List<String> ours = calls.runsSince(old.name(), since);
        if (!ours.isEmpty()) {
            step.writePending(pp -> pp.flinkRun = ours.get(0));
            return;
        }
        if (step.pastDeadline()) {
            endOrRollBack(p, "the jar did not start from the savepoint within " + step.timeout());
            return;
        }
        Map<String, Integer> at = step.rollingBack() ? p.from : p.to;
        try {
            String id =
                    calls.runJar(
                            step.jar().orElseThrow(), p.savepoint, FlinkCalls.byVertex(old, at));
            step.writePending(pp -> pp.flinkRun = id);
        } catch (FlinkConnectorException e) { // its answer may be lost: the next pass looks first
            LOG.warn(
                    "StreamJob {}: cannot run the Flink jar from {} yet: {}",
                    step.job().getMetadata().getName(),
                    p.savepoint,
                    e.getMessage());
        }
    }

    /**
     * Cancels the runs the change started before its rollback; true once they all ended, so that
     * the rollback never runs beside one.
     */
    private static boolean failedRunsEnded(FlinkCalls calls, String name, PendingChange p) {
        Set<String> failed = new HashSet<>(calls.runsSince(name, Instant.parse(p.started)));
        failed.removeAll(calls.runsSince(name, Instant.parse(p.rollbackStarted)));
        boolean ended = true;
        for (String run : failed) {
            ended &= calls.cancel(run);
        }
        return ended;
    }

    /** Waits for the run at its parallelism; a run that cannot get there is rolled back. */
    private void follow(PendingChange p) {
        FlinkJob run = step.read(p.flinkRun);
        Map<String, Integer> want = FlinkCalls.byVertex(run, step.rollingBack() ? p.from : p.to);
        if (run.allVerticesRunning() && FlinkCalls.runsAt(run, want)) {
            end.finish(
                    step,
                    !step.rollingBack(),
                    step.rollingBack()
                            ? p.rollbackReason
                                    + "; rolled back: the job runs at its old parallelism again"
                            : "the Flink job runs at it: run "
                                    + p.flinkRun
                                    + " from savepoint "
                                    + p.savepoint,
                    p.flinkRun);
        } else if (FlinkCalls.terminal(run.state())) {
            endOrRollBack(p, "run " + p.flinkRun + " is " + run.state());
        } else if (run.allVerticesRunning()) { // a fresh run's parallelism never changes
            endOrRollBack(
                    p,
                    "Flink runs the job at "
                            + run.parallelism()
                            + ", not at the parallelism asked for: the job did not apply "
                            + "pipeline.jobvertex-parallelism-overrides (see docs/flink.md)");
        } else if (step.pastDeadline()) {
            endOrRollBack(
                    p,
                    "it did not run all subtasks at the parallelism asked for within "
                            + step.timeout()
                            + "; last seen: "
                            + run.state()
                            + " at "
                            + run.parallelism());
        }
    }

    private void endOrRollBack(PendingChange p, String why) {
        if (!step.rollingBack()) {
            beginRollback(step, why);
            return;
        }
        end.finish(
                step,
                false,
                p.rollbackReason
                        + "; the rollback did not run either ("
                        + why
                        + "): check the job in Flink; its savepoint is "
                        + p.savepoint,
                null);
    }

    /** Records the rollback; the next passes cancel the change's runs and run the old one. */
    static void beginRollback(FlinkSessionStep step, String why) {
        String now = step.clock().instant().toString();
        step.writePending(
                pp -> {
                    pp.rollingBack = true;
                    pp.rollbackStarted = now;
                    pp.rollbackReason = why;
                    pp.flinkRun = null;
                });
    }
}
