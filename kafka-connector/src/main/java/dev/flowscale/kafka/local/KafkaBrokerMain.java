package dev.flowscale.kafka.local;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The entry point of the broker process that {@link LocalKafkaBroker} starts: formats the storage
 * folder once (KRaft needs a cluster id written before the first start), then runs Kafka's own
 * server main, which blocks until the process is told to stop.
 *
 * <p>Arguments: the server properties file and the cluster id.
 */
public final class KafkaBrokerMain {
    private KafkaBrokerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException(
                    "usage: KafkaBrokerMain <server.properties> <cluster id>");
        }
        Path properties = Path.of(args[0]);
        if (!Files.isRegularFile(properties)) {
            throw new IllegalArgumentException("no server properties at " + properties);
        }
        format(properties, args[1]);
        kafka.Kafka.main(new String[] {properties.toString()});
    }

    /** Kafka's storage tool; --ignore-formatted makes a restart keep the data already there. */
    private static void format(Path properties, String clusterId) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int code =
                kafka.tools.StorageTool.execute(
                        new String[] {
                            "format",
                            "-t",
                            clusterId,
                            "-c",
                            properties.toString(),
                            "--ignore-formatted"
                        },
                        new PrintStream(text, true, StandardCharsets.UTF_8));
        System.out.println(text.toString(StandardCharsets.UTF_8));
        if (code != 0) {
            throw new IllegalStateException("formatting the broker's storage failed: " + text);
        }
    }
}
