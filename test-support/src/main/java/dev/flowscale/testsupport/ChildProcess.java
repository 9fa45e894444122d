package dev.flowscale.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A process started by a test, its output in a file; {@link #close()} stops it and waits. */
public final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private ChildProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} with its standard output and error in {@code log}. */
    public static ChildProcess start(List<String> command, Path log) throws IOException {
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        return new ChildProcess(process, log);
    }

    /** Fails with the process's output if it has exited. */
    public void assertAlive() {
        if (!process.isAlive()) {
            throw new AssertionError(
                    "process exited with " + process.exitValue() + ":\n" + output());
        }
    }

    /** What the process has written so far. */
    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    /**
     * Asks the process and any it started to stop, then kills what is left after 10 s: a test's
     * server must not outlive the test, nor keep its port.
     */
    @Override
    public void close() {
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(10, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException e) {
                handle.destroyForcibly();
            } catch (InterruptedException e) {
                handle.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
