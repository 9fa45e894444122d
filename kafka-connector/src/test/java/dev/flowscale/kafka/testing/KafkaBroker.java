package dev.flowscale.kafka.testing;

import dev.flowscale.testsupport.Await;
import dev.flowscale.testsupport.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real Apache Kafka broker (the server artifacts from Maven Central) in KRaft mode, broker and
 * controller in one process, on loopback ports, in a child JVM: a test can crash and restart it as
 * a real broker goes down. Its data stays in the folder given, so a restart keeps topics and
 * records. Start one per test class: a start costs several seconds.
 */
public final class KafkaBroker implements KafkaCluster {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final String clusterId = Uuid.randomUuid().toString();
    private Process process;
    private int starts;

    private KafkaBroker(Path dir) {
        this.dir = dir;
        this.port = Ports.free();
        this.controllerPort = Ports.free();
    }

    /** Formats a broker's storage in {@code dir} and starts it; returns once it serves clients. */
    public static KafkaBroker start(Path dir) {
        KafkaBroker broker = new KafkaBroker(dir);
        broker.startProcess();
        return broker;
    }

    /** The {@code bootstrap.servers} value of this broker. */
    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /**
     * Kills the broker's process (as a crash would: no clean shutdown) and starts it again on the
     * same ports and data.
     */
    @Override
    public void crashAndRestart() {
        process.destroyForcibly();
        awaitExit();
        process = null;
        startProcess();
    }

    /** Stops the broker: a clean shutdown, forced after 30 s. */
    public void stop() {
        if (process != null) {
            process.destroy();
            if (!awaitExit()) {
                process.destroyForcibly();
                awaitExit();
            }
            process = null;
        }
    }

    private boolean awaitExit() {
        try {
            return process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** An admin client for this broker; the caller closes it. */
    @Override
    public Admin admin() {
        return Admin.create(
                Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers(),
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        30_000));
    }

    @Override
    public void close() {
        stop();
    }

    private void startProcess() {
        try {
            Path properties = writeProperties();
            starts++;
            process =
                    new ProcessBuilder(command(properties))
                            .redirectErrorStream(true)
                            .redirectOutput(dir.resolve("broker-" + starts + ".log").toFile())
                            .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a Kafka broker in " + dir, e);
        }
        Await.until(START_TIMEOUT, "the Kafka broker at " + bootstrapServers(), this::serves);
    }

    private boolean serves() {
        if (!process.isAlive()) {
            throw new AssertionError(
                    "the Kafka broker exited with " + process.exitValue() + "; see " + dir);
        }
        try (Admin admin = admin()) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    private List<String> command(Path properties) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // A small heap and the quick compiler: the broker serves a few test topics on a busy
        // machine.
        command.addAll(List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.add("-cp");
        command.add(classPath());
        command.add(KafkaBrokerMain.class.getName());
        command.add(properties.toString());
        command.add(clusterId);
        return command;
    }

    /** The test class path, where the server artifacts are (surefire names it in a property). */
    private static String classPath() {
        return System.getProperty(
                "surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private Path writeProperties() throws IOException {
        Files.createDirectories(dir.resolve("data"));
        String listener = "127.0.0.1:" + port;
        String controller = "127.0.0.1:" + controllerPort;
        String text =
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@" + controller,
                        "listeners=PLAINTEXT://" + listener + ",CONTROLLER://" + controller,
                        "advertised.listeners=PLAINTEXT://" + listener,
                        "controller.listener.names=CONTROLLER",
                        "inter.broker.listener.name=PLAINTEXT",
                        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "log.dirs=" + dir.resolve("data"),
                        // One replica and one partition for the internal topics: a single node
                        // that starts in seconds.
                        "offsets.topic.replication.factor=1",
                        "offsets.topic.num.partitions=1",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "transaction.state.log.num.partitions=1",
                        "share.coordinator.state.topic.replication.factor=1",
                        "share.coordinator.state.topic.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        // Transactions of killed test runners are aborted within a second of
                        // their timeout, not ten.
                        "transaction.abort.timed.out.transaction.cleanup.interval.ms=1000",
                        // A missing topic is an error the connector must report, not a new topic.
                        "auto.create.topics.enable=false",
                        "");
        Path file = dir.resolve("server.properties");
        Files.writeString(file, text);
        return file;
    }
}
