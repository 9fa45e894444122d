package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.realizer.RealizeException;
import dev.flowscale.runner.api.RunnerClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts job runners as child processes of this JVM ({@link RunnerCommand}), each on a free port
 * with its output in {@code logDirectory}, and waits until its {@code GET /api/v1/job} reports
 * RUNNING at the requested parallelism. {@link #close()} stops every runner it started.
 */
public final class ProcessRunnerLauncher implements RunnerLauncher, AutoCloseable {
    private final RunnerCommand command;
    private final Path logDirectory;
    private final Duration readyTimeout;
    private final Map<URI, Process> started = new ConcurrentHashMap<>();
    private final AtomicInteger launches = new AtomicInteger();

    public ProcessRunnerLauncher(RunnerCommand command, Path logDirectory, Duration readyTimeout) {
        if (command == null
                || logDirectory == null
                || readyTimeout == null
                || readyTimeout.isNegative()) {
            throw new RealizeException(
                    "process runner launcher needs a command, a log directory and a ready "
                            + "timeout >= 0; got "
                            + command
                            + ", "
                            + logDirectory
                            + ", "
                            + readyTimeout);
        }
        this.command = command;
        this.logDirectory = logDirectory;
        this.readyTimeout = readyTimeout;
    }

    @Override
    public URI start(Map<String, Integer> parallelism, Path restoreFrom) {
        int port = freePort();
        Path log =
                logDirectory.resolve(
                        command.job() + "-runner-" + launches.incrementAndGet() + ".log");
        Process process = spawn(command.command(parallelism, restoreFrom, port), log);
        URI runner = URI.create("http://127.0.0.1:" + port);
        started.put(runner, process);
        try {
            RunnerAwait.awaitRunning(
                    RunnerClient.connect(runner, Duration.ofSeconds(5), null),
                    parallelism,
                    readyTimeout,
                    process::isAlive);
            return runner;
        } catch (RealizeException e) {
            stop(runner);
            String exit = process.isAlive() ? "" : " (exit code " + process.exitValue() + ")";
            throw new RealizeException(
                    "runner of job '"
                            + command.job()
                            + "' at "
                            + parallelism
                            + " did not come up"
                            + exit
                            + ": "
                            + e.getMessage()
                            + "; its output is in "
                            + log
                            + ":\n"
                            + excerpt(log),
                    e);
        }
    }

    /** The runner processes started and not yet stopped by this launcher, alive or not. */
    public Map<URI, Process> runners() {
        return Map.copyOf(started);
    }

    @Override
    public void stop(URI runner) {
        Process process = started.remove(runner);
        if (process != null) {
            destroy(process);
        }
    }

    /** Stops every runner this launcher started. */
    @Override
    public void close() {
        List.copyOf(started.keySet()).forEach(this::stop);
    }

    private Process spawn(List<String> commandLine, Path log) {
        try {
            Files.createDirectories(logDirectory);
            return new ProcessBuilder(commandLine)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new RealizeException(
                    "cannot start the runner of job '"
                            + command.job()
                            + "' ("
                            + commandLine
                            + "): "
                            + e.getMessage()
                            + "; check the java binary and engine jar",
                    e);
        }
    }

    private static void destroy(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new RealizeException("no free port for a job runner: " + e.getMessage(), e);
        }
    }

    /** The lines that report an error, then the last lines of the output. */
    private static String excerpt(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            List<String> errors =
                    lines.stream()
                            .filter(l -> l.toLowerCase(Locale.ROOT).contains("error"))
                            .limit(5)
                            .toList();
            List<String> tail = lines.subList(Math.max(0, lines.size() - 10), lines.size());
            return String.join("\n", errors)
                    + (errors.isEmpty() ? "" : "\n...\n")
                    + String.join("\n", tail);
        } catch (IOException e) {
            return "(cannot read it: " + e.getMessage() + ")";
        }
    }
}
