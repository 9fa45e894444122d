package dev.flowscale.engine.checkpoint;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a main class of the test classpath in a separate JVM, as a runner process on a host would
 * run.
 */
public final class ChildJvm {
    private ChildJvm() {}

    /**
     * @param jvmOptions e.g. {@code -Xmx64m}
     * @param mainClass the class whose {@code main} runs
     * @param args its arguments
     */
    public static ProcessBuilder command(
            List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        // C1 only: these children live for a second or two, so start-up matters more than peak
        // speed.
        command.add("-XX:TieredStopAtLevel=1");
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        return new ProcessBuilder(command);
    }

    /** Starts {@code mainClass} with stdout and stderr merged. */
    public static Process start(Class<?> mainClass, String... args) throws IOException {
        return command(List.of(), mainClass.getName(), List.of(args))
                .redirectErrorStream(true)
                .start();
    }
}
