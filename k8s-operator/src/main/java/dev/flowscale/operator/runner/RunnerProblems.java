package dev.flowscale.operator.runner;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What is wrong with a job's runner, read from its Deployment and pods as the kubelet and the
 * scheduler report them: an image that cannot be pulled (container waiting with ErrImagePull,
 * ImagePullBackOff, ...), a container that cannot be created (CreateContainerConfigError, e.g. a
 * Secret the pod template names is missing), a crash loop (CrashLoopBackOff, with the restart count
 * and the last termination's reason such as OOMKilled), a pod the cluster refuses to create (the
 * Deployment's ReplicaFailure condition), a pod the scheduler cannot place (PodScheduled False,
 * reason Unschedulable) and a runner not ready within the deploy timeout. Pure: the caller passes
 * the objects and the time.
 */
public final class RunnerProblems {
    /** Waiting reasons of a container whose image cannot be pulled. */
    static final Set<String> IMAGE_PULL =
            Set.of(
                    "ErrImagePull",
                    "ImagePullBackOff",
                    "InvalidImageName",
                    "ErrImageNeverPull",
                    "RegistryUnavailable");

    /** Waiting reasons of a container that cannot be created from the pod's spec. */
    static final Set<String> CREATE_FAILED =
            Set.of("CreateContainerConfigError", "CreateContainerError", "RunContainerError");

    static final String UNSCHEDULABLE = "Unschedulable";
    static final String REPLICA_FAILURE = "ReplicaFailure";

    /** The reason of a pod the cluster refused to create (the ReplicaSet controller's). */
    public static final String FAILED_CREATE = "FailedCreate";

    public static final String CRASH_LOOP = "CrashLoopBackOff";
    static final String DEPLOY_TIMEOUT = "DeployTimeout";

    /** Most characters of a crashed runner's termination message shown in a problem. */
    static final int LAST_WORDS = 300;

    /**
     * A problem: its reason (the Kubernetes one where there is one) and a message naming the pod.
     */
    record Problem(String reason, String message) {}

    private RunnerProblems() {}

    /**
     * The runner's most pressing problem, or empty when it has none.
     *
     * @param deployingSince when the runner started to deploy (its Ready condition went false)
     */
    static Optional<Problem> problem(
            Deployment deployment,
            List<Pod> pods,
            Instant deployingSince,
            Duration deployTimeout,
            Instant now) {
        Optional<Problem> refused = refused(deployment);
        if (refused.isPresent()) {
            return refused;
        }
        for (Pod pod : pods) {
            Optional<Problem> found = containerProblem(pod).or(() -> unschedulable(pod));
            if (found.isPresent()) {
                return found;
            }
        }
        return deployTimeout(deployment, deployingSince, deployTimeout, now);
    }

    /**
     * The cluster refused to create the runner's pod (Pod Security admission, a ResourceQuota, a
     * LimitRange, a webhook): the ReplicaSet controller sets condition ReplicaFailure (reason
     * FailedCreate, the API server's message) on its ReplicaSet, and the Deployment controller
     * copies it to the Deployment, whose status the operator caches. No pod exists to report it.
     */
    static Optional<Problem> refused(Deployment deployment) {
        if (deployment == null || deployment.getStatus() == null) {
            return Optional.empty();
        }
        return deployment.getStatus().getConditions().stream()
                .filter(c -> REPLICA_FAILURE.equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst()
                .map(
                        c ->
                                new Problem(
                                        c.getReason() == null ? FAILED_CREATE : c.getReason(),
                                        "the cluster refused to create a pod for runner "
                                                + deployment.getMetadata().getName()
                                                + ": "
                                                + c.getMessage()
                                                + "; change spec.podTemplate or spec.resources to"
                                                + " meet the namespace's Pod Security level,"
                                                + " ResourceQuota and LimitRange, or have them"
                                                + " changed"));
    }

    private static Optional<Problem> containerProblem(Pod pod) {
        return containerStatuses(pod).flatMap(c -> waiting(pod, c).stream()).findFirst();
    }

    private static Optional<Problem> waiting(Pod pod, ContainerStatus c) {
        String reason =
                c.getState() == null || c.getState().getWaiting() == null
                        ? "" // Set.of rejects null
                        : String.valueOf(c.getState().getWaiting().getReason());
        String detail =
                c.getState() == null || c.getState().getWaiting() == null
                        ? null
                        : c.getState().getWaiting().getMessage();
        String at = "pod " + name(pod) + " container " + c.getName() + ": ";
        if (IMAGE_PULL.contains(reason)) {
            return Optional.of(
                    new Problem(
                            reason,
                            at
                                    + "cannot pull image "
                                    + c.getImage()
                                    + (detail == null ? "" : " (" + detail + ")")
                                    + ": check spec.image and the pod template's imagePullSecrets"));
        }
        if (CREATE_FAILED.contains(reason)) {
            return Optional.of(
                    new Problem(
                            reason,
                            at
                                    + "cannot be created"
                                    + (detail == null ? "" : ": " + detail)
                                    + "; check the Secrets, ConfigMaps and volumes the pod template names"));
        }
        if (CRASH_LOOP.equals(reason)) {
            return Optional.of(
                    new Problem(
                            reason,
                            at
                                    + "crash loop after "
                                    + c.getRestartCount()
                                    + " restarts"
                                    + lastTermination(c)));
        }
        return Optional.empty();
    }

    private static String lastTermination(ContainerStatus c) {
        var last = c.getLastState() == null ? null : c.getLastState().getTerminated();
        if (last == null) {
            return "";
        }
        String hint =
                "OOMKilled".equals(last.getReason())
                        ? " (raise spec.resources.memory: the container's memory limit is one slot's memory times the"
                                + " total parallelism)"
                        : lastWords(last.getMessage());
        return "; last exit " + last.getReason() + " with code " + last.getExitCode() + hint;
    }

    /**
     * The end of the termination message (the runner's container keeps its log's tail there,
     * FallbackToLogsOnError): e.g. why the runner refused spec.job.args.
     */
    private static String lastWords(String message) {
        String text = message == null ? "" : message.strip();
        if (text.isEmpty()) {
            return "; see the container's log (kubectl logs --previous)";
        }
        String tail =
                text.length() <= LAST_WORDS
                        ? text
                        : "…" + text.substring(text.length() - LAST_WORDS);
        return ": "
                + tail.replaceAll("\\s*\\R\\s*", " | ")
                + " (kubectl logs --previous has the whole log)";
    }

    private static Optional<Problem> unschedulable(Pod pod) {
        return conditions(pod)
                .filter(
                        c ->
                                "PodScheduled".equals(c.getType())
                                        && "False".equals(c.getStatus())
                                        && UNSCHEDULABLE.equals(c.getReason()))
                .findFirst()
                .map(
                        c ->
                                new Problem(
                                        UNSCHEDULABLE,
                                        "pod "
                                                + name(pod)
                                                + " cannot be scheduled: "
                                                + c.getMessage()
                                                + "; lower the parallelism or spec.resources, or add capacity"));
    }

    private static Optional<Problem> deployTimeout(
            Deployment deployment, Instant since, Duration timeout, Instant now) {
        boolean ready =
                deployment != null
                        && deployment.getStatus() != null
                        && deployment.getStatus().getReadyReplicas() != null
                        && deployment.getStatus().getReadyReplicas() > 0;
        if (ready || deployment == null || since == null || !now.isAfter(since.plus(timeout))) {
            return Optional.empty();
        }
        return Optional.of(
                new Problem(
                        DEPLOY_TIMEOUT,
                        "runner "
                                + deployment.getMetadata().getName()
                                + " is not ready "
                                + Duration.between(since, now).toSeconds()
                                + "s after it was deployed (timeout "
                                + timeout.toSeconds()
                                + "s, spec.timeouts.deploy): see its pod's events (kubectl describe pod)"));
    }

    private static Stream<ContainerStatus> containerStatuses(Pod pod) {
        if (pod.getStatus() == null) {
            return Stream.empty();
        }
        return Stream.concat(
                pod.getStatus().getInitContainerStatuses().stream(),
                pod.getStatus().getContainerStatuses().stream());
    }

    private static Stream<PodCondition> conditions(Pod pod) {
        return pod.getStatus() == null ? Stream.empty() : pod.getStatus().getConditions().stream();
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }
}
