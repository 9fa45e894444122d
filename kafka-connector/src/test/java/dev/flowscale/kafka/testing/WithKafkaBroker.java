package dev.flowscale.kafka.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class with one real broker for all its tests (a start costs seconds), in {@link #dir}: a
 * broker in a child JVM, or with {@code -Dflowscale.kafka.broker=container} (profile {@code
 * kafka-containers}) a Kafka container, skipped where there is no Docker engine.
 */
@ExtendWith(DockerForContainers.class)
public abstract class WithKafkaBroker {
    @TempDir protected static Path dir;

    /** Which Kafka the tests run against: {@value #CHILD_JVM} or {@value #CONTAINER}. */
    public static final String PROPERTY = "flowscale.kafka.broker";

    static final String CHILD_JVM = "child-jvm";
    static final String CONTAINER = "container";

    protected static KafkaCluster broker;
    protected static Topics topics;

    @BeforeAll
    static void startBroker() {
        broker =
                containerVariant()
                        ? KafkaContainerBroker.start()
                        : KafkaBroker.start(dir.resolve("broker"));
        topics = new Topics(broker);
    }

    static boolean containerVariant() {
        return CONTAINER.equals(System.getProperty(PROPERTY, CHILD_JVM));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }
}
