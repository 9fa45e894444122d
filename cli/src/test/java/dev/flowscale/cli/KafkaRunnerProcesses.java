package dev.flowscale.cli;

import dev.flowscale.autoscaler.realizer.RealizeException;
import dev.flowscale.autoscaler.testing.RunnerLauncher;
import dev.flowscale.engine.cli.EngineMain;
import dev.flowscale.kafka.KafkaWordCount;
import dev.flowscale.runner.api.RunnerClient;
import dev.flowscale.testsupport.Await;
import dev.flowscale.testsupport.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code kafka-wordcount} job runners as child processes ({@code EngineMain run}, the
 * connector on the class path as in the runner image), one at a time, always on the same port and
 * storage: what a Kubernetes Deployment behind a Service does, so the controller's address of the
 * runner survives a rescale and a killed runner's restart. A new runner starts once the previous
 * one has exited (after its stop-with-savepoint, or a kill); without a savepoint to restore it
 * recovers from the newest snapshot in the storage.
 */
final class KafkaRunnerProcesses implements RunnerLauncher, AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final List<String> jobArgs;
    private final Path storage;
    private final Map<String, String> environment;
    private final int port = Ports.free();
    private Process current;
    private int starts;

    /**
     * @param jobArgs the job's options (Kafka, checkpoint interval, cost), without those set here
     * @param environment added to each runner's (the Kafka client settings)
     */
    KafkaRunnerProcesses(List<String> jobArgs, Path storage, Map<String, String> environment) {
        this.jobArgs = List.copyOf(jobArgs);
        this.storage = storage;
        this.environment = Map.copyOf(environment);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Override
    public synchronized URI start(Map<String, Integer> parallelism, Path restoreFrom) {
        awaitExit(current);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(List.of("-cp", classPath(), EngineMain.class.getName()));
        command.addAll(List.of("run", KafkaWordCount.NAME));
        command.addAll(jobArgs);
        StringJoiner assignments = new StringJoiner(",");
        parallelism.forEach((op, p) -> assignments.add(op + "=" + p));
        command.addAll(List.of("--parallelism", assignments.toString()));
        if (restoreFrom != null) {
            command.addAll(List.of("--restore-from", restoreFrom.toString()));
        }
        command.addAll(List.of("--savepoint-dir", storage.toString(), "--metrics-port", "" + port));
        current = spawn(command);
        try {
            awaitReady(current);
        } catch (RuntimeException | AssertionError e) {
            current.destroyForcibly();
            throw new RealizeException("runner " + starts + " did not come up: " + e, e);
        }
        return endpoint();
    }

    private Process spawn(List<String> command) {
        try {
            Files.createDirectories(storage);
            Path log = storage.resolve("runner-" + ++starts + ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a runner: " + e.getMessage(), e);
        }
    }

    private void awaitReady(Process process) {
        RunnerClient client = RunnerClient.connect(endpoint(), Duration.ofSeconds(5), null);
        Await.until(
                WAIT,
                "runner " + starts + " running",
                () -> {
                    if (!process.isAlive()) {
                        throw new RealizeException(
                                "runner " + starts + " exited; see " + storage + "/runner-*.log");
                    }
                    try {
                        return client.readiness().ready();
                    } catch (RuntimeException notYet) {
                        return false;
                    }
                });
    }

    /** SIGKILL on Linux: no shutdown hook, no final snapshot, its open transaction left open. */
    synchronized void kill() {
        current.destroyForcibly();
        awaitExit(current);
    }

    private static void awaitExit(Process process) {
        if (process == null) {
            return;
        }
        try {
            if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RealizeException("interrupted waiting for a runner to exit", e);
        }
    }

    @Override
    public synchronized void stop(URI runner) {
        if (current != null) {
            current.destroy();
            awaitExit(current);
        }
    }

    @Override
    public void close() {
        stop(endpoint());
    }

    private static String classPath() {
        return System.getProperty(
                "surefire.test.class.path", System.getProperty("java.class.path"));
    }
}
