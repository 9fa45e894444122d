package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.cli.EngineMain;
import dev.flowscale.runner.api.RunnerClient;
import dev.flowscale.testsupport.Await;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code kafka-wordcount} in a job runner process of its own ({@code EngineMain run}, the connector
 * on its class path as it is in the runner image), which a test can kill as a node loss would.
 */
final class WordCountRunner implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Process process;
    private final Path log;
    private final RunnerClient client;

    private WordCountRunner(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.client = RunnerClient.connect(URI.create("http://127.0.0.1:" + port), WAIT, null);
    }

    /**
     * Starts a runner on {@code storage} (it restores from the latest snapshot there),
     * checkpointing every 300 ms, with a 3 s transaction timeout so that a killed runner's open
     * transaction stops holding back read_committed readers soon.
     */
    static WordCountRunner start(
            String servers, String in, String out, Path storage, int port, String logName)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", classPath()));
        command.addAll(List.of(EngineMain.class.getName(), "run", KafkaWordCount.NAME));
        command.addAll(List.of("--kafka-bootstrap-servers", servers, "--kafka-topic", in));
        command.addAll(List.of("--kafka-output-topic", out, "--savepoint-dir", storage.toString()));
        command.addAll(List.of("--checkpoint-interval", "300ms", "--metrics-port", "" + port));
        Files.createDirectories(storage);
        Path log = storage.resolve(logName);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("KAFKA_CLIENT_TRANSACTION_TIMEOUT_MS", "3000");
        return new WordCountRunner(builder.start(), log, port);
    }

    private static String classPath() {
        return System.getProperty(
                "surefire.test.class.path", System.getProperty("java.class.path"));
    }

    RunnerClient client() {
        return client;
    }

    /** Waits until the job runs (its readiness answers ready). */
    void awaitRunning() {
        Await.until(
                WAIT,
                "the runner's job RUNNING",
                () -> {
                    assertThat(process.isAlive()).as("the runner is alive: " + output()).isTrue();
                    try {
                        return client.readiness().ready();
                    } catch (RuntimeException notYet) {
                        return false;
                    }
                });
    }

    /** SIGKILL on Linux: no shutdown hook, no final snapshot, the open transaction left open. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("killed").isTrue();
    }

    private String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
