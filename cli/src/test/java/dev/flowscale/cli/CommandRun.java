package dev.flowscale.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs the flowscale command in this JVM and keeps what it printed. */
final class CommandRun {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** The exit code of {@code flowscale args}. */
    int run(String... args) {
        return FlowscaleMain.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    void reset() {
        out.reset();
        err.reset();
    }
}
