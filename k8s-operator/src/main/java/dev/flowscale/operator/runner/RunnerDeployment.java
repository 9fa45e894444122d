package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.SlotResources;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import dev.flowscale.operator.core.JobLabel;
import dev.flowscale.operator.core.ParallelismText;
import dev.flowscale.runner.api.Readiness;
import dev.flowscale.runner.api.RunnerPaths;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Deployment that runs a StreamJob's job runner: one replica (zero when suspended), replaced
 * with the Recreate strategy so two runners never write the same savepoints; container arguments
 * built from the spec; CPU and memory requests of one slot times the total parallelism; the control
 * API's token from the job's Secret; the user's pod template merged in ({@link RunnerPodTemplate})
 * over defaults that pass Pod Security {@code restricted}.
 */
public final class RunnerDeployment {
    public static final String CONTAINER = "runner";
    static final String CONFIG_DIR = "/etc/flowscale";

    /**
     * Where an image built FROM the runner image keeps a user job's jars (examples/Dockerfile): the
     * runner loads every jar under it in the job's own class loader.
     */
    public static final String JOBS_DIR = "/opt/flowscale/jobs";

    /**
     * Hints for annotation-based Prometheus scrape configurations (the chart's PodMonitor selects
     * runner pods by label instead); scrape with honor_labels: true to keep the job label.
     */
    static final Map<String, String> SCRAPE_HINTS =
            Map.of(
                    "prometheus.io/scrape",
                    "true",
                    "prometheus.io/port",
                    String.valueOf(RunnerResources.API_PORT),
                    "prometheus.io/path",
                    RunnerPaths.PROMETHEUS);

    /**
     * The runner answers 200 here only while its job runs (not while stopped with a savepoint):
     * {@link Readiness}.
     */
    static final String READY_PATH = RunnerPaths.READY;

    private RunnerDeployment() {}

    /**
     * @param parallelism current parallelism per operator (operators not named keep the job's
     *     default)
     * @param restoreFrom savepoint to restore from, or null to start empty
     */
    public static Deployment desired(
            StreamJob job, Map<String, Integer> parallelism, String restoreFrom) {
        PodTemplateSpec owned =
                new PodTemplateSpecBuilder()
                        .withNewMetadata()
                        .withLabels(RunnerResources.labels(job))
                        .withAnnotations(SCRAPE_HINTS)
                        .addToAnnotations(RunnerWatch.JOB_ANNOTATION, job.getMetadata().getName())
                        .endMetadata()
                        .withSpec(podSpec(job, parallelism, restoreFrom))
                        .build();
        return new DeploymentBuilder()
                .withMetadata(RunnerResources.metadata(job, RunnerResources.runnerName(job)))
                .withNewSpec()
                .withReplicas(job.getSpec().suspend ? 0 : 1)
                .withNewStrategy()
                .withType("Recreate")
                .endStrategy()
                .withNewSelector()
                .withMatchLabels(RunnerResources.selector(job))
                .endSelector()
                .withTemplate(RunnerPodTemplate.merge(owned, job.getSpec().podTemplate, CONTAINER))
                .endSpec()
                .build();
    }

    private static PodSpec podSpec(
            StreamJob job, Map<String, Integer> parallelism, String restoreFrom) {
        PodSpecBuilder pod =
                new PodSpecBuilder()
                        .withContainers(container(job, parallelism, restoreFrom))
                        .addNewVolume()
                        .withName("config")
                        .withNewConfigMap()
                        .withName(RunnerResources.configName(job))
                        .endConfigMap()
                        .endVolume();
        String claim = job.getSpec().savepoints.claimName;
        if (claim != null && !claim.isBlank()) {
            pod.addNewVolume()
                    .withName("savepoints")
                    .withNewPersistentVolumeClaim()
                    .withClaimName(claim)
                    .endPersistentVolumeClaim()
                    .endVolume();
        }
        return pod.build();
    }

    private static Container container(
            StreamJob job, Map<String, Integer> parallelism, String restoreFrom) {
        StreamJobSpec spec = job.getSpec();
        ContainerBuilder c =
                new ContainerBuilder()
                        .withName(CONTAINER)
                        .withImage(spec.image)
                        .withArgs(args(job, parallelism, restoreFrom))
                        .withResources(
                                resources(
                                        spec.resources,
                                        PodSizing.slots(spec.resources, parallelism)))
                        // A runner that refuses its arguments exits 2 with the reason on stderr:
                        // the kubelet
                        // keeps the log's tail as the termination message, which RunnerProblems
                        // reports.
                        .withTerminationMessagePolicy("FallbackToLogsOnError")
                        .addNewPort()
                        .withName("http")
                        .withContainerPort(RunnerResources.API_PORT)
                        .endPort()
                        .withNewReadinessProbe()
                        .withNewHttpGet()
                        .withPath(READY_PATH)
                        .withNewPort("http")
                        .endHttpGet()
                        .withPeriodSeconds(5)
                        .endReadinessProbe()
                        .addNewVolumeMount()
                        .withName("config")
                        .withMountPath(CONFIG_DIR)
                        .withReadOnly(true)
                        .endVolumeMount()
                        .addNewEnv()
                        .withName(RunnerResources.TOKEN_ENV)
                        .withNewValueFrom()
                        .withNewSecretKeyRef()
                        .withName(RunnerResources.tokenName(job))
                        .withKey(RunnerResources.TOKEN_KEY)
                        .endSecretKeyRef()
                        .endValueFrom()
                        .endEnv();
        c.addAllToEnv(KafkaRunnerSettings.env(spec.kafka));
        if (spec.savepoints.claimName != null && !spec.savepoints.claimName.isBlank()) {
            c.addNewVolumeMount()
                    .withName("savepoints")
                    .withMountPath(spec.savepoints.path)
                    .endVolumeMount();
        }
        // The runner's last log lines become the container's termination message when it fails
        // (e.g.
        // "error: unknown option --x" with exit 2), so the crash loop in the job's status says why.
        c.withTerminationMessagePolicy("FallbackToLogsOnError");
        return c.build();
    }

    /**
     * Runner arguments: {@code run <builtin>} (built-in jobs) or {@code run --job-jar JOBS_DIR
     * --job-class <mainClass>} (a user's job, run by the image's own entrypoint, so its JVM
     * settings stay), then the runner options and the job's args. The runner is named {@code
     * namespace/name} (its metrics' job label, as the operator's own metrics) and lingers after a
     * stop with a savepoint: a container that exited would be restarted by the kubelet with these
     * same arguments before the operator replaces the pod.
     */
    static List<String> args(StreamJob job, Map<String, Integer> parallelism, String restoreFrom) {
        StreamJobSpec spec = job.getSpec();
        List<String> args = new ArrayList<>();
        if (spec.job.builtin != null) {
            args.addAll(List.of("run", spec.job.builtin));
        } else {
            args.addAll(List.of("run", "--job-jar", JOBS_DIR, "--job-class", spec.job.mainClass));
        }
        args.addAll(
                List.of(
                        "--metrics-port",
                        String.valueOf(RunnerResources.API_PORT),
                        "--savepoint-dir",
                        savepointDir(job),
                        "--checkpoint-interval",
                        Objects.requireNonNullElse(spec.savepoints.checkpointInterval, "30s"),
                        "--retain",
                        String.valueOf(
                                Objects.requireNonNullElse(
                                        spec.savepoints.retain, RunnerDefaults.RETAIN)),
                        "--job-name",
                        JobLabel.of(job),
                        "--after-stop",
                        "linger"));
        if (!parallelism.isEmpty()) {
            args.addAll(List.of("--parallelism", ParallelismText.arg(parallelism)));
        }
        if (restoreFrom != null) {
            args.addAll(List.of("--restore-from", restoreFrom));
        }
        args.addAll(KafkaRunnerSettings.args(spec.kafka));
        args.addAll(spec.job.args);
        return args;
    }

    /**
     * One directory per job on the savepoint volume, so jobs sharing a claim do not mix savepoints.
     */
    static String savepointDir(StreamJob job) {
        String root = job.getSpec().savepoints.path.replaceAll("/+$", "");
        return root + "/" + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    }

    static ResourceRequirements resources(SlotResources slot, int slots) {
        BigDecimal cpu =
                Quantity.getAmountInBytes(new Quantity(slot.cpu))
                        .multiply(BigDecimal.valueOf(slots));
        BigDecimal memory =
                Quantity.getAmountInBytes(new Quantity(slot.memory))
                        .multiply(BigDecimal.valueOf(slots));
        Quantity cpuQ = new Quantity(cpu.movePointRight(3).setScale(0, RoundingMode.CEILING) + "m");
        Quantity memQ =
                new Quantity(
                        memory.divide(BigDecimal.valueOf(1024 * 1024), 0, RoundingMode.CEILING)
                                + "Mi");
        return new ResourceRequirementsBuilder()
                .addToRequests("cpu", cpuQ)
                .addToRequests("memory", memQ)
                .addToLimits("memory", memQ)
                .build();
    }
}
