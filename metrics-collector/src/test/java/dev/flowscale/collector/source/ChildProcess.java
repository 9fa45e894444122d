package dev.flowscale.collector.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A process started by a test, its output in a file; {@link #close()} stops it and waits. */
final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private ChildProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ChildProcess start(List<String> command, Path log) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ChildProcess(process, log);
    }

    /** Fails with the process's output if it has exited. */
    void assertAlive() {
        if (!process.isAlive()) {
            throw new AssertionError("process exited with " + process.exitValue() + ":\n" + output());
        }
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
