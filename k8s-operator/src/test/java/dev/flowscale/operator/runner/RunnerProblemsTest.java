package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pod and Deployment statuses in the shapes the Kubernetes API reference gives (PodStatus,
 * ContainerStatus).
 */
public class RunnerProblemsTest {
    static final Instant DEPLOYED = Instant.parse("2026-12-01T04:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(5);

    /**
     * A pod whose image the kubelet cannot pull, as `kubectl get pod -o json` shows it after a few
     * tries.
     */
    public static final String IMAGE_PULL_BACKOFF =
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-7d9f8b6c5-x2x4q", "namespace": "jobs"},
             "status": {"phase": "Pending",
               "conditions": [
                 {"type": "Initialized", "status": "True", "lastTransitionTime": "2026-12-01T04:00:01Z"},
                 {"type": "Ready", "status": "False", "reason": "ContainersNotReady",
                  "message": "containers with unready status: [runner]"},
                 {"type": "ContainersReady", "status": "False", "reason": "ContainersNotReady"},
                 {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-12-01T04:00:01Z"}],
               "containerStatuses": [{"name": "runner", "image": "registry.example/flowscale-runner:0.1.O",
                 "imageID": "", "ready": false, "restartCount": 0, "started": false,
                 "state": {"waiting": {"reason": "ImagePullBackOff",
                   "message": "Back-off pulling image \\"registry.example/flowscale-runner:0.1.O\\""}}}]}}
            """;

    /**
     * A pod the scheduler cannot place: PodScheduled False, reason Unschedulable, no container
     * statuses.
     */
    public static final String UNSCHEDULABLE =
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-7d9f8b6c5-q8k2m", "namespace": "jobs"},
             "status": {"phase": "Pending", "qosClass": "Burstable",
               "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                 "lastTransitionTime": "2026-12-01T04:00:01Z",
                 "message": "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available:\
             3 No preemption victims found for incoming pod."}]}}
            """;

    /** A runner killed for exceeding its memory limit, now in back-off. */
    static final String OOM_CRASH_LOOP =
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-7d9f8b6c5-z9z9z", "namespace": "jobs"},
             "status": {"phase": "Running",
               "conditions": [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "False"}],
               "containerStatuses": [{"name": "runner", "image": "registry.example/flowscale-runner:0.1.0",
                 "ready": false, "restartCount": 4, "started": false,
                 "state": {"waiting": {"reason": "CrashLoopBackOff",
                   "message": "back-off 1m20s restarting failed container=runner pod=wc-runner-7d9f8b6c5-z9z9z"}},
                 "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled",
                   "startedAt": "2026-12-01T04:03:00Z", "finishedAt": "2026-12-01T04:03:41Z"}}}]}}
            """;

    /**
     * A runner that refused its arguments (exit code 2) and is in back-off: with the container's
     * terminationMessagePolicy FallbackToLogsOnError the kubelet keeps the log's tail as the
     * message.
     */
    static final String REFUSED_ARGS_CRASH_LOOP =
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-7d9f8b6c5-a1a1a", "namespace": "jobs"},
             "status": {"phase": "Running",
               "conditions": [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "False"}],
               "containerStatuses": [{"name": "runner", "image": "registry.example/flowscale-runner:0.1.0",
                 "ready": false, "restartCount": 2, "started": false,
                 "state": {"waiting": {"reason": "CrashLoopBackOff",
                   "message": "back-off 20s restarting failed container=runner pod=wc-runner-7d9f8b6c5-a1a1a"}},
                 "lastState": {"terminated": {"exitCode": 2, "reason": "Error",
                   "message": "flowscale-engine: option --rate is 'fast'; use a number of records per second\\nusage: flowscale-engine run <job> [options]\\n",
                   "startedAt": "2026-12-01T04:03:00Z", "finishedAt": "2026-12-01T04:03:01Z"}}}]}}
            """;

    /** A container whose env names a Secret that does not exist. */
    static final String MISSING_SECRET =
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-1-a", "namespace": "jobs"},
             "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "True"}],
               "containerStatuses": [{"name": "runner", "image": "registry.example/flowscale-runner:0.1.0",
                 "ready": false, "restartCount": 0,
                 "state": {"waiting": {"reason": "CreateContainerConfigError",
                   "message": "secret \\"kafka\\" not found"}}}]}}
            """;

    /** A healthy, starting runner: scheduled, container running, not ready yet. */
    public static final String STARTING =
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-1-b", "namespace": "jobs"},
             "status": {"phase": "Running", "conditions": [{"type": "PodScheduled", "status": "True"}],
               "containerStatuses": [{"name": "runner", "ready": false, "restartCount": 0, "started": true,
                 "state": {"running": {"startedAt": "2026-12-01T04:00:05Z"}}}]}}
            """;

    static final String NOT_READY_DEPLOYMENT =
            """
            {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "wc-runner", "namespace": "jobs"},
             "status": {"observedGeneration": 1, "replicas": 1, "unavailableReplicas": 1,
               "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"}]}}
            """;

    @Test
    void anImagePullBackOffIsReportedWithTheImageAndTheKubeletsMessage() {
        RunnerProblems.Problem problem =
                problem(IMAGE_PULL_BACKOFF, DEPLOYED.plusSeconds(30)).orElseThrow();

        assertThat(problem.reason()).isEqualTo("ImagePullBackOff");
        assertThat(problem.message())
                .contains("pod wc-runner-7d9f8b6c5-x2x4q container runner")
                .contains("registry.example/flowscale-runner:0.1.O")
                .contains("imagePullSecrets");
    }

    @Test
    void anUnschedulablePodIsReportedWithTheSchedulersMessage() {
        RunnerProblems.Problem problem =
                problem(UNSCHEDULABLE, DEPLOYED.plusSeconds(30)).orElseThrow();

        assertThat(problem.reason()).isEqualTo("Unschedulable");
        assertThat(problem.message())
                .contains("3 Insufficient cpu")
                .contains("lower the parallelism");
    }

    @Test
    void aCrashLoopNamesTheRestartsAndTheLastTerminationReason() {
        RunnerProblems.Problem problem =
                problem(OOM_CRASH_LOOP, DEPLOYED.plusSeconds(300)).orElseThrow();

        assertThat(problem.reason()).isEqualTo("CrashLoopBackOff");
        assertThat(problem.message())
                .contains("after 4 restarts")
                .contains("last exit OOMKilled with code 137")
                .contains("spec.resources.memory");
    }

    @Test
    void aRunnerThatRefusedItsArgumentsIsReportedWithTheTailOfItsLog() {
        RunnerProblems.Problem problem =
                problem(REFUSED_ARGS_CRASH_LOOP, DEPLOYED.plusSeconds(60)).orElseThrow();

        assertThat(problem.reason()).isEqualTo("CrashLoopBackOff");
        assertThat(problem.message())
                .contains("last exit Error with code 2")
                .contains(
                        "option --rate is 'fast'; use a number of records per second | usage: flowscale-engine run")
                .doesNotContain("\n");
    }

    @Test
    void aContainerThatCannotBeCreatedNamesTheMissingSecret() {
        RunnerProblems.Problem problem =
                problem(MISSING_SECRET, DEPLOYED.plusSeconds(10)).orElseThrow();

        assertThat(problem.reason()).isEqualTo("CreateContainerConfigError");
        assertThat(problem.message()).contains("secret \"kafka\" not found");
    }

    @Test
    void aStartingRunnerHasNoProblemUntilTheDeployTimeoutPasses() {
        assertThat(problem(STARTING, DEPLOYED.plus(TIMEOUT))).isEmpty();

        RunnerProblems.Problem late =
                problem(STARTING, DEPLOYED.plus(TIMEOUT).plusSeconds(1)).orElseThrow();
        assertThat(late.reason()).isEqualTo("DeployTimeout");
        assertThat(late.message())
                .contains("runner wc-runner is not ready 301s after")
                .contains("spec.timeouts.deploy");
    }

    @Test
    void aPodTheClusterRefusedIsReportedWithTheApiServersMessageAtOnce() {
        Deployment refused = Serialization.unmarshal(NOT_READY_DEPLOYMENT, Deployment.class);
        refused.getStatus()
                .getConditions()
                .add(
                        new io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder()
                                .withType("ReplicaFailure")
                                .withStatus("True")
                                .withReason("FailedCreate")
                                .withMessage(
                                        "pods \"wc-runner-7d9f8b6c5-\" is forbidden: exceeded quota:"
                                                + " compute, requested: cpu=2, used: cpu=3, limited: cpu=4")
                                .build());

        RunnerProblems.Problem problem =
                RunnerProblems.problem(
                                refused, List.of(), DEPLOYED, TIMEOUT, DEPLOYED.plusSeconds(1))
                        .orElseThrow();

        assertThat(problem.reason()).isEqualTo("FailedCreate");
        assertThat(problem.message())
                .contains("refused to create a pod for runner wc-runner")
                .contains("exceeded quota: compute, requested: cpu=2")
                .contains("ResourceQuota");
    }

    @Test
    void aReadyRunnerNeverTimesOut() {
        Deployment ready = Serialization.unmarshal(NOT_READY_DEPLOYMENT, Deployment.class);
        ready.getStatus().setReadyReplicas(1);

        assertThat(
                        RunnerProblems.problem(
                                ready,
                                List.of(pod(STARTING)),
                                DEPLOYED,
                                TIMEOUT,
                                DEPLOYED.plus(Duration.ofHours(1))))
                .isEmpty();
    }

    private static java.util.Optional<RunnerProblems.Problem> problem(String podJson, Instant now) {
        return RunnerProblems.problem(
                Serialization.unmarshal(NOT_READY_DEPLOYMENT, Deployment.class),
                List.of(pod(podJson)),
                DEPLOYED,
                TIMEOUT,
                now);
    }

    private static Pod pod(String json) {
        return Serialization.unmarshal(json, Pod.class);
    }
}
