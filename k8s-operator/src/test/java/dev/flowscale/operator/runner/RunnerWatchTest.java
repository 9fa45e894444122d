package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.operator.FlowscaleOperator;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunnerWatchTest {
    static final Instant NOW = Instant.parse("2026-12-01T05:00:00Z");
    static final RunnerProblems.Problem UNSCHEDULABLE =
            new RunnerProblems.Problem(
                    "Unschedulable",
                    "pod wc-runner-1 cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.");

    @Test
    void aProblemFailsADeployingJobWithTheReason() {
        StreamJobStatus status = withPhase(JobPhase.Deploying);

        RunnerWatch.record(status, Optional.of(UNSCHEDULABLE), 3L, NOW);

        assertThat(status.phase).isEqualTo(JobPhase.Failed);
        assertThat(Conditions.find(status, RunnerWatch.CONDITION))
                .hasValueSatisfying(
                        c -> {
                            assertThat(c.getStatus()).isEqualTo("False");
                            assertThat(c.getReason()).isEqualTo("Unschedulable");
                            assertThat(c.getObservedGeneration()).isEqualTo(3L);
                        });
    }

    @Test
    void aScaleUpThatCannotBeScheduledStaysRescalingAndSaysItIsBlocked() {
        StreamJobStatus status = withPhase(JobPhase.Rescaling);

        RunnerWatch.record(status, Optional.of(UNSCHEDULABLE), 3L, NOW);

        assertThat(status.phase).isEqualTo(JobPhase.Rescaling);
        assertThat(Conditions.find(status, RunnerWatch.CONDITION).orElseThrow().getMessage())
                .startsWith("the rescale is blocked: pod wc-runner-1 cannot be scheduled");
    }

    @Test
    void noProblemLeavesThePhaseAndMarksTheRunnerHealthy() {
        StreamJobStatus status = withPhase(JobPhase.Running);

        RunnerWatch.record(status, Optional.empty(), 3L, NOW);

        assertThat(status.phase).isEqualTo(JobPhase.Running);
        assertThat(Conditions.isTrue(status, RunnerWatch.CONDITION)).isTrue();
    }

    @Test
    void aNewDeployAfterALongUnreadyRunnerCountsTheDeployTimeoutFromTheDeploy() {
        StreamJobStatus status = withPhase(JobPhase.Deploying);
        notReadySince(status, NOW.minusSeconds(3600));
        status.deployedAt = NOW.minusSeconds(60).toString();

        assertThat(RunnerWatch.deployingSince(status, NOW)).isEqualTo(NOW.minusSeconds(60));
    }

    @Test
    void aRunnerThatTurnedUnreadyAfterItsDeployCountsFromThatTransition() {
        StreamJobStatus status = withPhase(JobPhase.Deploying);
        status.deployedAt = NOW.minusSeconds(3600).toString();
        notReadySince(status, NOW.minusSeconds(120));

        assertThat(RunnerWatch.deployingSince(status, NOW)).isEqualTo(NOW.minusSeconds(120));
    }

    @Test
    void withoutAReadyConditionOrADeployTheRunnerDeploysFromNow() {
        assertThat(RunnerWatch.deployingSince(withPhase(JobPhase.Deploying), NOW)).isEqualTo(NOW);
    }

    private static void notReadySince(StreamJobStatus status, Instant since) {
        Conditions.set(status, Conditions.READY, false, "NotReady", "not ready", 1L, since);
    }

    @Test
    void theDeployTimeoutDefaultComesFromTheEnvironmentOrIsFiveMinutes() {
        assertThat(RunnerWatch.defaultDeployTimeout(null)).hasMinutes(5);
        assertThat(RunnerWatch.defaultDeployTimeout("90s")).hasSeconds(90);
    }

    @Test
    void theRescaleTimeoutDefaultComesFromTheEnvironmentOrIsThreeMinutes() {
        assertThat(FlowscaleOperator.rescaleTimeout("")).hasMinutes(3);
        assertThat(FlowscaleOperator.rescaleTimeout("90s")).hasSeconds(90);
        assertThatThrownBy(() -> FlowscaleOperator.rescaleTimeout("3 minutes"))
                .hasMessageContaining("FLOWSCALE_RESCALE_TIMEOUT is '3 minutes'");
    }

    private static StreamJobStatus withPhase(JobPhase phase) {
        StreamJobStatus status = new StreamJobStatus();
        status.phase = phase;
        return status;
    }
}
