package dev.flowscale.kafka.testing;

import dev.flowscale.kafka.local.LocalKafkaBroker;
import java.nio.file.Path;

/**
 * The tests' broker in a child JVM: the connector's {@link LocalKafkaBroker} (the one {@code
 * ./flowscale demo --kafka} starts) as a {@link KafkaCluster}. A test can crash and restart it as a
 * real broker goes down; its data stays in the folder given. Start one per test class.
 */
public final class KafkaBroker extends LocalKafkaBroker implements KafkaCluster {
    private KafkaBroker(Path dir) {
        super(dir);
    }

    /** Formats a broker's storage in {@code dir} and starts it; returns once it serves clients. */
    public static KafkaBroker start(Path dir) {
        KafkaBroker broker = new KafkaBroker(dir);
        broker.startProcess();
        return broker;
    }
}
