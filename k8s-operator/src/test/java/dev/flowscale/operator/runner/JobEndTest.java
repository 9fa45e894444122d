package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import org.junit.jupiter.api.Test;

class JobEndTest {
    private final StreamJob job = StreamJobs.wordCount("ns", "wc");

    @Test
    void onlyARunnerWhoseJobEndedByItselfIsLeftAloneAndAStoppedOneIsNot() {
        assertThat(JobEnd.ENDED).containsExactlyInAnyOrder("FINISHED", "FAILED", "CANCELLED");
        assertThat(JobEnd.TRANSIENT)
                .containsExactlyInAnyOrder("RUNNING", "RESTARTING", "RESCALING");
        assertThat(JobEnd.ENDED).doesNotContain("STOPPED");
        assertThat(JobEnd.TRANSIENT).doesNotContain("STOPPED");
    }

    @Test
    void aFinishedJobIsFinishedAndAFailedOrCancelledOneIsFailed() {
        assertThat(JobEnd.phase("FINISHED")).isEqualTo(JobPhase.Finished);
        assertThat(JobEnd.phase("FAILED")).isEqualTo(JobPhase.Failed);
        assertThat(JobEnd.phase("CANCELLED")).isEqualTo(JobPhase.Failed);
        assertThat(JobEnd.reason("FINISHED")).isEqualTo("JobFinished");
        assertThat(JobEnd.reason("FAILED")).isEqualTo("JobFailed");
        assertThat(JobEnd.reason("CANCELLED")).isEqualTo("JobCancelled");
    }

    @Test
    void theMessageSaysWhatEndedTheJobAndHowToRunItAgain() {
        assertThat(JobEnd.message(job, "FINISHED"))
                .startsWith("runner wc-runner finished the job: its input ended")
                .contains("change the spec")
                .contains("spec.savepoints.path");
        assertThat(JobEnd.message(job, "FAILED"))
                .contains("FAILED")
                .contains("restart strategy gave up")
                .contains("kubectl logs deployment/wc-runner")
                .contains("change the spec");
        assertThat(JobEnd.message(job, "CANCELLED"))
                .contains("CANCELLED")
                .contains("change the spec");
    }

    @Test
    void anEndRecordedForAnEarlierSpecIsNotTheCurrentSpecsEnd() {
        job.getMetadata().setGeneration(3L);
        StreamJobStatus status = new StreamJobStatus();
        assertThat(JobEnd.ended(job, status)).isFalse();
        status.endedAs = "FINISHED";
        status.endedGeneration = 2L;
        assertThat(JobEnd.ended(job, status))
                .as("the spec changed since: the job runs again")
                .isFalse();
        status.endedGeneration = 3L;
        assertThat(JobEnd.ended(job, status)).isTrue();
    }
}
