package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.runner.RunnerProblemsTest;
import dev.flowscale.operator.runner.RunnerWatch;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A runner pod's failure reaches the StreamJob's status within 10 seconds. The mock API server has
 * no ReplicaSet controller, scheduler or kubelet: the test creates the pod as the ReplicaSet
 * controller would (the Deployment's template labels and annotations) with the status the kubelet
 * or the scheduler would write (shapes in {@link RunnerProblemsTest}).
 */
@EnableKubernetesMockClient(crud = true)
class RunnerFailuresIT {
    static final String NS = "jobs";
    static final Duration WITHIN = Duration.ofSeconds(10);
    KubernetesClient client;
    TestingOperator operator;

    @BeforeEach
    void startOperator() {
        operator = TestingOperator.start(client);
        client.resource(StreamJobs.savepointClaim(NS, "savepoints")).create();
    }

    @AfterEach
    void stopOperator() {
        operator.close();
    }

    @Test
    void aPodStuckInImagePullShowsInStatusWithin10Seconds() {
        Condition condition = runnerPodWithStatus(RunnerProblemsTest.IMAGE_PULL_BACKOFF);

        assertThat(condition.getReason()).isEqualTo("ImagePullBackOff");
        assertThat(condition.getMessage())
                .contains("cannot pull image registry.example/flowscale-runner:0.1.O");
    }

    @Test
    void aPodThatCannotBeScheduledShowsInStatusWithin10Seconds() {
        Condition condition = runnerPodWithStatus(RunnerProblemsTest.UNSCHEDULABLE);

        assertThat(condition.getReason()).isEqualTo("Unschedulable");
        assertThat(condition.getMessage()).contains("0/3 nodes are available: 3 Insufficient cpu");
    }

    /**
     * What the ReplicaSet controller reports when Pod Security admission refuses the pod (its
     * ReplicaFailure condition, which the Deployment controller copies to the Deployment).
     */
    static final String REFUSED =
            "pods \"wc-runner-7d9f8b6c5-\" is forbidden: violates PodSecurity \"restricted:latest\":"
                    + " allowPrivilegeEscalation != false (container \"runner\" must set"
                    + " securityContext.allowPrivilegeEscalation=false)";

    @Test
    void aPodTheClusterRefusesToCreateShowsInStatusAndAnEventWithTheApisMessage() {
        Deployment runner = createJobAndAwaitRunner();
        runner.setStatus(
                new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder()
                        .withReplicas(0)
                        .addNewCondition()
                        .withType("ReplicaFailure")
                        .withStatus("True")
                        .withReason("FailedCreate")
                        .withMessage(REFUSED)
                        .endCondition()
                        .build());
        client.resource(runner).updateStatus();

        StreamJob job = awaitJob(j -> j.getStatus().phase == JobPhase.Failed);
        Condition condition = Conditions.find(job.getStatus(), RunnerWatch.CONDITION).orElseThrow();
        assertThat(condition.getReason()).isEqualTo("FailedCreate");
        assertThat(condition.getMessage())
                .contains("refused to create a pod for runner wc-runner")
                .contains(REFUSED);
        assertThat(
                        Eventually.await(
                                "a FailedCreate Event",
                                () -> RunnerJobHarness.events(client, "FailedCreate"),
                                e -> !e.isEmpty()))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains(REFUSED));
    }

    @Test
    void theJobRecoversWhenThePodIsHealthyAgain() {
        runnerPodWithStatus(RunnerProblemsTest.IMAGE_PULL_BACKOFF);
        Pod pod = client.pods().inNamespace(NS).withName("wc-runner-7d9f8b6c5-x2x4q").get();
        pod.setStatus(Serialization.unmarshal(RunnerProblemsTest.STARTING, Pod.class).getStatus());
        client.pods().inNamespace(NS).resource(pod).updateStatus();

        StreamJob job = awaitJob(j -> Conditions.isTrue(j.getStatus(), RunnerWatch.CONDITION));
        assertThat(job.getStatus().phase).isEqualTo(JobPhase.Deploying);
    }

    /**
     * Creates the job, then its runner pod with the given status; returns the job's RunnerHealthy
     * condition.
     */
    private Condition runnerPodWithStatus(String podJson) {
        Deployment runner = createJobAndAwaitRunner();
        Pod pod = Serialization.unmarshal(podJson, Pod.class);
        pod.getMetadata().setLabels(runner.getSpec().getTemplate().getMetadata().getLabels());
        pod.getMetadata()
                .setAnnotations(runner.getSpec().getTemplate().getMetadata().getAnnotations());
        pod.setSpec(runner.getSpec().getTemplate().getSpec());
        client.resource(pod).create();

        StreamJob job = awaitJob(j -> j.getStatus().phase == JobPhase.Failed);
        return Conditions.find(job.getStatus(), RunnerWatch.CONDITION)
                .filter(c -> "False".equals(c.getStatus()))
                .orElseThrow();
    }

    /** Creates the job jobs/wc; returns its runner Deployment once the operator created it. */
    private Deployment createJobAndAwaitRunner() {
        client.resource(StreamJobs.wordCount(NS, "wc")).create();
        return Eventually.await(
                "Deployment wc-runner",
                () -> client.apps().deployments().inNamespace(NS).withName("wc-runner").get(),
                d -> d != null);
    }

    private StreamJob awaitJob(java.util.function.Predicate<StreamJob> check) {
        return Eventually.await(
                WITHIN,
                "status of StreamJob jobs/wc",
                () -> client.resources(StreamJob.class).inNamespace(NS).withName("wc").get(),
                j -> j.getStatus() != null && j.getStatus().phase != null && check.test(j));
    }
}
