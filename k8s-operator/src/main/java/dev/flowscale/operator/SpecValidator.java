package dev.flowscale.operator;

import dev.flowscale.operator.api.AutoscalerSpec;
import dev.flowscale.operator.api.JobSpec;
import dev.flowscale.operator.api.SavepointStorage;
import dev.flowscale.operator.api.StreamJobSpec;
import dev.flowscale.operator.core.DurationText;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.flink.FlinkTargetChecks;
import dev.flowscale.operator.loop.SpecSettings;
import dev.flowscale.operator.runner.KafkaRunnerSettings;
import dev.flowscale.operator.runner.RunnerDefaults;
import dev.flowscale.operator.runner.RunnerProblems;
import dev.flowscale.runner.api.RunnerJobs;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks what the CRD schema admits but the operator cannot run. Each problem names the field and
 * the fix; an empty list means the spec can run (cluster facts such as the PVC are checked apart).
 */
public final class SpecValidator {
    /** The runner's built-in jobs (the runner API's list, which the engine's catalogue uses). */
    static final Set<String> BUILTIN_JOBS = Set.copyOf(RunnerJobs.IN_RUNNER_IMAGE);

    private SpecValidator() {}

    public static List<String> problems(StreamJobSpec spec) {
        List<String> problems = new ArrayList<>();
        if (spec == null) {
            problems.add(
                    "spec is missing: set spec.image, spec.job and spec.savepoints, or spec.flink");
            return problems;
        }
        if (spec.flink != null) {
            FlinkTargetChecks.check(spec, problems);
            problems.addAll(autoscalerProblems(spec.autoscaler));
            return problems;
        }
        if (blank(spec.image)) {
            problems.add("spec.image is empty: set the job runner's container image");
        }
        checkJob(spec.job, problems);
        KafkaRunnerSettings.check(spec.job, spec.kafka, problems);
        checkParallelism(spec.parallelism, spec.autoscaler, problems);
        problems.addAll(autoscalerProblems(spec.autoscaler));
        checkResources(spec, problems);
        if (spec.savepoints == null
                || blank(spec.savepoints.path)
                || !spec.savepoints.path.startsWith("/")) {
            problems.add(
                    "spec.savepoints.path must be an absolute path in the runner container, e.g."
                            + " /flowscale/savepoints");
        }
        if (spec.savepoints != null
                && blank(spec.savepoints.claimName)
                && !spec.savepoints.ephemeral) {
            problems.add(
                    "spec.savepoints.claimName is empty: without a PersistentVolumeClaim the job's checkpoints"
                            + " and savepoints are lost with its pod; name a claim, or set spec.savepoints.ephemeral: true"
                            + " for a demo");
        }
        checkRetain(spec, problems);
        checkUpgradeMode(spec.savepoints, problems);
        checkRescaling(spec, problems);
        return problems;
    }

    private static void checkUpgradeMode(SavepointStorage savepoints, List<String> problems) {
        String mode = savepoints == null ? null : savepoints.upgradeMode;
        if (mode != null
                && !mode.equals(SavepointStorage.SAVEPOINT)
                && !mode.equals(SavepointStorage.LAST_STATE)) {
            problems.add(
                    "spec.savepoints.upgradeMode is '"
                            + mode
                            + "': use savepoint (a change whose savepoint fails is abandoned) or"
                            + " last-state (it restores the latest checkpoint instead)");
        }
    }

    private static void checkJob(JobSpec job, List<String> problems) {
        if (job == null || blank(job.builtin) == blank(job.mainClass)) {
            problems.add(
                    "spec.job must set exactly one of builtin (one of "
                            + BUILTIN_JOBS
                            + ") and mainClass");
        } else if (!blank(job.builtin) && !BUILTIN_JOBS.contains(job.builtin)) {
            problems.add(
                    "spec.job.builtin '"
                            + job.builtin
                            + "' is not a built-in job: use one of "
                            + BUILTIN_JOBS.stream().sorted().toList()
                            + " or set spec.job.mainClass");
        } else {
            checkArgs(job, problems);
        }
    }

    /**
     * The operator sets some runner options itself. The values of a built-in job's other arguments
     * are the runner's to check (the operator does not load the engine): a bad one stops the runner
     * with exit code 2 and its message, which reaches the StreamJob's status through the crash
     * loop's termination message ({@link RunnerProblems}).
     */
    private static void checkArgs(JobSpec job, List<String> problems) {
        List<String> args = job.args == null ? List.of() : job.args;
        for (String arg : args) {
            String field = OPERATOR_OPTIONS.get(arg);
            if (field != null) {
                problems.add(
                        "spec.job.args must not set "
                                + arg
                                + ": the operator sets it; use "
                                + field);
            }
        }
    }

    /** Runner options the operator passes, with where the user sets what they control. */
    private static final Map<String, String> OPERATOR_OPTIONS =
            Map.of(
                    "--parallelism", "spec.parallelism",
                    "--savepoint-dir", "spec.savepoints",
                    "--restore-from",
                            "spec.suspend (the operator restores from the last savepoint)",
                    "--metrics-port", "the runner Service (port 9249)",
                    "--job-name", "metadata.name (the job is named <namespace>/<name>)",
                    "--after-stop",
                            "nothing: the operator keeps stopped runners until it replaces their pods",
                    "--checkpoint-interval", "spec.savepoints.checkpointInterval",
                    "--retain", "spec.savepoints.retain");

    private static void checkParallelism(
            Map<String, Integer> parallelism, AutoscalerSpec autoscaler, List<String> problems) {
        if (parallelism == null) {
            return;
        }
        int max =
                autoscaler == null || autoscaler.maxParallelism == null
                        ? Integer.MAX_VALUE
                        : autoscaler.maxParallelism;
        parallelism.forEach(
                (operator, p) -> {
                    if (p == null || p < 1 || p > max) {
                        problems.add(
                                "spec.parallelism."
                                        + operator
                                        + " is "
                                        + p
                                        + ": set it between 1 and"
                                        + " spec.autoscaler.maxParallelism ("
                                        + max
                                        + ")");
                    }
                });
    }

    /**
     * Problems of the autoscaler settings that are set (the reconciler checks them after {@link
     * AutoscalerDefaults} filled in the rest, so a job's min and a default max are checked
     * together).
     */
    static List<String> autoscalerProblems(AutoscalerSpec a) {
        return SpecSettings.problems(a);
    }

    private static void checkResources(StreamJobSpec spec, List<String> problems) {
        if (spec.resources == null) {
            return;
        }
        quantity("spec.resources.cpu", spec.resources.cpu, problems);
        quantity("spec.resources.memory", spec.resources.memory, problems);
    }

    private static void checkRetain(StreamJobSpec spec, List<String> problems) {
        Integer retain = spec.savepoints == null ? null : spec.savepoints.retain;
        if (retain != null && (retain < 1 || retain > RunnerDefaults.MAX_RETAIN)) {
            problems.add(
                    "spec.savepoints.retain is "
                            + retain
                            + ": set how many checkpoints and savepoints the"
                            + " runner keeps, from 1 to "
                            + RunnerDefaults.MAX_RETAIN
                            + " (at least 1: the newest is"
                            + " what a restart restores from)");
        }
    }

    private static void checkRescaling(StreamJobSpec spec, List<String> problems) {
        if (spec.rescaling == null) {
            return;
        }
        positiveDuration("spec.rescaling.retryBackoff", spec.rescaling.retryBackoff, problems);
        positiveDuration(
                "spec.rescaling.maxRetryBackoff", spec.rescaling.maxRetryBackoff, problems);
    }

    /**
     * A wait of 0 would retry an unschedulable scale-up in a loop, which is what the backoff
     * prevents.
     */
    private static void positiveDuration(String field, String text, List<String> problems) {
        int before = problems.size();
        duration(field, text, problems);
        if (text != null && problems.size() == before && DurationText.parse(field, text).isZero()) {
            problems.add(field + " is " + text + ": set a wait above 0, e.g. 1m");
        }
    }

    private static void duration(String field, String text, List<String> problems) {
        if (text == null) {
            return;
        }
        try {
            DurationText.parse(field, text);
        } catch (OperatorException e) {
            problems.add(e.getMessage());
        }
    }

    private static void quantity(String field, String text, List<String> problems) {
        try {
            if (Quantity.getAmountInBytes(new Quantity(text)).signum() <= 0) {
                problems.add(
                        field + " is " + text + ": set a positive quantity, e.g. 250m or 256Mi");
            }
        } catch (RuntimeException e) {
            problems.add(
                    field + " is '" + text + "': set a Kubernetes quantity, e.g. 250m or 256Mi");
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
