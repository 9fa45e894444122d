package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.realizer.RealizeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The command line of a job runner: {@code java <jvm options> -jar <engine jar> run <job> <job
 * args> --parallelism a=1,b=2 [--restore-from PATH] --savepoint-dir DIR --metrics-port N}.
 *
 * @param java the java binary
 * @param jvmOptions e.g. {@code -Xmx256m}
 * @param engineJar {@code engine/target/flowscale-engine.jar}
 * @param job a built-in job of the engine (wordcount, chain, sensor-alerts, nexmark-q1 ...; {@code
 *     RunnerJobs.BUILTIN} lists them)
 * @param jobArgs options of {@code run} other than those the launcher sets (rate, cost, ...)
 * @param savepointDir where the runner keeps its checkpoints and savepoints
 */
public record RunnerCommand(
        Path java,
        List<String> jvmOptions,
        Path engineJar,
        String job,
        List<String> jobArgs,
        Path savepointDir) {
    private static final Set<String> SET_BY_LAUNCHER =
            Set.of("--parallelism", "--restore-from", "--savepoint-dir", "--metrics-port");

    public RunnerCommand {
        if (java == null
                || engineJar == null
                || job == null
                || job.isBlank()
                || savepointDir == null) {
            throw new RealizeException(
                    "runner command needs the java binary, the engine jar, a job and a savepoint "
                            + "directory; got "
                            + java
                            + ", "
                            + engineJar
                            + ", "
                            + job
                            + ", "
                            + savepointDir);
        }
        jvmOptions = List.copyOf(jvmOptions);
        jobArgs = List.copyOf(jobArgs);
        jobArgs.stream()
                .filter(arg -> SET_BY_LAUNCHER.contains(arg.split("=", 2)[0]))
                .findFirst()
                .ifPresent(
                        arg -> {
                            throw new RealizeException(
                                    "runner command of job '"
                                            + job
                                            + "': remove "
                                            + arg
                                            + " from the job "
                                            + "arguments; the launcher sets "
                                            + SET_BY_LAUNCHER);
                        });
    }

    /** The java of this JVM, no JVM options. */
    public static RunnerCommand of(
            Path engineJar, String job, List<String> jobArgs, Path savepointDir) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new RunnerCommand(java, List.of(), engineJar, job, jobArgs, savepointDir);
    }

    public RunnerCommand withJvmOptions(List<String> options) {
        return new RunnerCommand(java, options, engineJar, job, jobArgs, savepointDir);
    }

    /**
     * The full command for a runner at {@code parallelism}, restored from {@code restoreFrom} (may
     * be null).
     */
    public List<String> command(
            Map<String, Integer> parallelism, Path restoreFrom, int metricsPort) {
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", engineJar.toString(), "run", job));
        command.addAll(jobArgs);
        StringJoiner assignments = new StringJoiner(",");
        parallelism.forEach((op, p) -> assignments.add(op + "=" + p));
        if (!parallelism.isEmpty()) {
            command.addAll(List.of("--parallelism", assignments.toString()));
        }
        if (restoreFrom != null) {
            command.addAll(List.of("--restore-from", restoreFrom.toString()));
        }
        command.addAll(
                List.of(
                        "--savepoint-dir",
                        savepointDir.toString(),
                        "--metrics-port",
                        Integer.toString(metricsPort)));
        return command;
    }
}
