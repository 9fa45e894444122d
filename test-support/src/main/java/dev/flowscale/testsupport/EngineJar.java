package dev.flowscale.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The engine's shaded jar that integration tests start job runners from: system property {@value
 * #PROPERTY} (each module's failsafe configuration sets it), else the engine module's build output
 * beside this module.
 */
public final class EngineJar {
    public static final String PROPERTY = "flowscale.engine.jar";

    private EngineJar() {}

    /**
     * The jar's absolute path.
     *
     * @throws AssertionError when it does not exist, saying how to build it
     */
    public static Path path() {
        Path jar =
                Path.of(System.getProperty(PROPERTY, "../engine/target/flowscale-engine.jar"))
                        .toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError(
                    "the engine's jar "
                            + jar
                            + " does not exist; build it with mvn -pl engine package, or set -D"
                            + PROPERTY);
        }
        return jar;
    }
}
