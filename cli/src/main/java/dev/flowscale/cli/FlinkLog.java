package dev.flowscale.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Where a local Flink cluster in this process logs: Flink logs through SLF4J, which this command
 * binds to java.util.logging, whose console handler would mix Flink's INFO lines and the stack
 * traces it logs while a job restarts into the live view. They go to a file instead.
 */
final class FlinkLog {
    /** The file, under the folder the embedded demos keep their data in. */
    static final Path FILE = Path.of("flowscale-data", "flink.log");

    private FlinkLog() {}

    /** Sends every java.util.logging record of this process to {@link #FILE}; its absolute path. */
    static Path toFile() throws IOException {
        Path file = FILE.toAbsolutePath();
        Files.createDirectories(file.getParent());
        FileHandler handler = new FileHandler(file.toString(), false);
        handler.setFormatter(new SimpleFormatter());
        Logger root = Logger.getLogger("");
        for (Handler console : root.getHandlers()) {
            root.removeHandler(console);
        }
        root.addHandler(handler);
        return file;
    }
}
