package dev.flowscale.kafka.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** A test class with one real broker for all its tests (a start costs seconds), in {@link #dir}. */
public abstract class WithKafkaBroker {
    @TempDir protected static Path dir;
    protected static KafkaBroker broker;
    protected static Topics topics;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start(dir.resolve("broker"));
        topics = new Topics(broker);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }
}
