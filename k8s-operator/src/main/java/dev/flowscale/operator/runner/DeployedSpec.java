package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.SpecRollback;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ReconcileStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Objects;

/**
 * The spec a runner Deployment is rendered from: the job's own, except while its generation was
 * rolled back ({@code status.rolledBack}), when the runner keeps the spec it ran before ({@code
 * status.deployedSpec}) until the spec changes again.
 */
final class DeployedSpec {
    private DeployedSpec() {}

    /** The job to render the runner's Deployment from in this pass. */
    static StreamJob runnerJob(ReconcileStatus pass) {
        StreamJob job = pass.job();
        StreamJobStatus st = pass.status();
        boolean rolledBack =
                st.rolledBack != null
                        && st.deployedSpec != null
                        && Objects.equals(
                                st.rolledBack.generation, job.getMetadata().getGeneration());
        return rolledBack ? withSpec(job, st.deployedSpec) : job;
    }

    /**
     * Records that the pending change's generation was rolled back ({@code status.rolledBack}) and
     * says so in a Warning Event: the runner runs the spec it ran before until the spec changes.
     */
    static void rolledBack(ReconcileStatus pass, ExecutorTools tools, String why) {
        PendingChange c = pass.status().pending;
        SpecRollback rollback = new SpecRollback();
        rollback.generation = c.generation;
        rollback.time = tools.clock().instant().toString();
        rollback.message =
                "generation "
                        + c.generation
                        + " ("
                        + c.reason
                        + ") rolled back: "
                        + why
                        + "; the runner runs the spec it ran before, and generation "
                        + c.generation
                        + " is not applied again until the spec changes";
        pass.write(st -> st.rolledBack = rollback);
        tools.events()
                .warning(
                        pass.job(),
                        JobEvents.SPEC_ROLLED_BACK,
                        "runner "
                                + RunnerResources.runnerName(pass.job())
                                + ": "
                                + rollback.message);
    }

    /** {@code job} rendered with {@code spec} (JSON, as {@link #of} wrote it). */
    static StreamJob withSpec(StreamJob job, String spec) {
        StreamJob copy = Serialization.clone(job);
        copy.setSpec(Serialization.unmarshal(spec, StreamJobSpec.class));
        return copy;
    }

    /** The spec {@code job}'s runner is rendered from, as recorded in status. */
    static String of(StreamJob job) {
        return Serialization.asJson(job.getSpec());
    }
}
