package dev.flowscale.charts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command to completion with a deadline, stdout and stderr together. */
final class Processes {
    record Run(int exitCode, String output) {}

    private Processes() {}

    static Run run(Path directory, int timeoutSeconds, String... command) {
        try {
            Path log = Files.createTempFile(directory, "process-", ".log");
            Process process =
                    new ProcessBuilder(List.of(command))
                            .directory(directory.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(
                        String.join(" ", command)
                                + " did not finish within "
                                + timeoutSeconds
                                + " s:\n"
                                + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot run "
                            + String.join(" ", command)
                            + " in "
                            + directory
                            + " (is it installed and on the PATH?)",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), e);
        }
    }
}
