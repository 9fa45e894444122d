package dev.flowscale.kafka.local;

import dev.flowscale.kafka.KafkaConnectorException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
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
 * A real Apache Kafka broker (the server artifacts, {@code kafka_2.13}, on this JVM's class path)
 * in KRaft mode, broker and controller in one process, on loopback ports, in a child JVM. Its data
 * stays in the folder given, so a restart keeps topics and records. The tests start one per test
 * class; {@code ./flowscale demo --kafka} starts one for the demo. A start costs several seconds.
 */
public class LocalKafkaBroker implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final int LOG_TAIL_LINES = 15;

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final String clusterId = Uuid.randomUuid().toString();
    private Process process;
    private int starts;

    /** A broker whose data goes in {@code dir}; {@link #startProcess} starts it. */
    protected LocalKafkaBroker(Path dir) {
        this.dir = dir;
        this.port = freePort();
        this.controllerPort = freePort();
    }

    /**
     * Formats a broker's storage in {@code dir} and starts it; returns once it serves clients.
     *
     * @throws KafkaConnectorException if the process cannot start, exits, or does not serve within
     *     90 s; the message holds the end of the broker's log
     */
    public static LocalKafkaBroker start(Path dir) {
        LocalKafkaBroker broker = new LocalKafkaBroker(dir);
        broker.startProcess();
        return broker;
    }

    /** The {@code bootstrap.servers} value of this broker. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The folder of its data, configuration and logs. */
    public Path dir() {
        return dir;
    }

    /**
     * Kills the broker's process (as a crash would: no clean shutdown) and starts it again on the
     * same ports and data.
     */
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

    /** An admin client for this broker; the caller closes it. */
    public Admin admin() {
        return admin(bootstrapServers());
    }

    /**
     * An admin client for {@code bootstrapServers} with a 30 s API timeout; the caller closes it.
     */
    public static Admin admin(String bootstrapServers) {
        return Admin.create(
                Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        30_000));
    }

    @Override
    public void close() {
        stop();
    }

    private boolean awaitExit() {
        try {
            return process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts the process and waits until it serves clients. */
    protected final void startProcess() {
        starts++;
        Path log = dir.resolve("broker-" + starts + ".log");
        try {
            Path properties = writeProperties();
            process =
                    new ProcessBuilder(command(properties))
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
        } catch (IOException e) {
            throw new KafkaConnectorException(
                    "cannot start a Kafka broker in " + dir + ": " + e.getMessage(), e);
        }
        awaitServing(log);
    }

    /** Polls the broker until it serves, it exits, or the start timeout passes. */
    private void awaitServing(Path log) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!serves()) {
            if (!process.isAlive()) {
                throw failed("exited with code " + process.exitValue(), log);
            }
            if (System.nanoTime() > deadline) {
                stop();
                throw failed(
                        "did not serve clients within " + START_TIMEOUT.toSeconds() + " s", log);
            }
            try {
                Thread.sleep(200); // a poll interval: the broker gives no start signal
            } catch (InterruptedException e) {
                stop();
                Thread.currentThread().interrupt();
                throw new KafkaConnectorException("interrupted while the Kafka broker started");
            }
        }
    }

    private KafkaConnectorException failed(String what, Path log) {
        return new KafkaConnectorException(
                "the Kafka broker at "
                        + bootstrapServers()
                        + " "
                        + what
                        + "; the end of its log "
                        + log
                        + ":\n"
                        + tail(log));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(
                    "\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private boolean serves() {
        if (!process.isAlive()) {
            return false;
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
        // A small heap and the quick compiler: the broker serves a few topics on a busy machine.
        command.addAll(List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.add("-cp");
        command.add(classPath());
        command.add(KafkaBrokerMain.class.getName());
        command.add(properties.toString());
        command.add(clusterId);
        return command;
    }

    /**
     * This JVM's class path, where the server artifacts are (under surefire/failsafe, the test
     * class path, which they name in a property).
     */
    private static String classPath() {
        return System.getProperty(
                "surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new KafkaConnectorException("no free loopback port for a Kafka broker", e);
        }
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
                        // Transactions of killed runners are aborted within a second of their
                        // timeout, not ten.
                        "transaction.abort.timed.out.transaction.cleanup.interval.ms=1000",
                        // A missing topic is an error the connector must report, not a new topic.
                        "auto.create.topics.enable=false",
                        "");
        Path file = dir.resolve("server.properties");
        Files.writeString(file, text);
        return file;
    }
}
