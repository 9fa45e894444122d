package dev.flowscale.charts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A command run to its end by a test, with its output (stdout and stderr) kept in a file. */
final class Command {
    /** How a command ended. */
    record Result(List<String> command, int exitCode, String output) {
        boolean succeeded() {
            return exitCode == 0;
        }

        String describe() {
            return String.join(" ", command) + " exited with " + exitCode + ":\n" + output;
        }
    }

    private Command() {}

    static Result run(Path dir, Duration timeout, List<String> command)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile(ChartsModule.target(), "command-", ".log");
        try {
            return runLogged(dir, timeout, command, log);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static Result runLogged(Path dir, Duration timeout, List<String> command, Path log)
            throws IOException, InterruptedException {
        Process process;
        try {
            process =
                    new ProcessBuilder(command)
                            .directory(dir.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
        } catch (IOException e) {
            return new Result(command, -1, "cannot start it: " + e.getMessage());
        }
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return new Result(
                    command,
                    -1,
                    "killed after " + timeout.toSeconds() + " s:\n" + Files.readString(log));
        }
        return new Result(command, process.exitValue(), Files.readString(log));
    }
}
