package dev.flowscale.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code --report} file, claimed before the run starts: a run of minutes that cannot write its
 * report at the end would lose it, so the path is checked by writing a placeholder page.
 */
final class ReportFile {
    private static final String PLACEHOLDER =
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>flowscale run"
                    + " in progress</title></head><body><p>This flowscale run is still in progress; the report is written"
                    + " when it ends.</p></body></html>";

    private ReportFile() {}

    /**
     * Creates {@code --savepoint-dir} if needed and writes a probe file in it, so a folder that
     * cannot hold the rescale savepoints fails the command at start, not at the first rescale.
     */
    static Path writableFolder(String option, String raw) {
        Path dir = Path.of(raw).toAbsolutePath();
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".flowscale-probe", ".tmp"));
        } catch (IOException | RuntimeException e) {
            throw new CliException(
                    "option --"
                            + option
                            + " "
                            + raw
                            + " cannot be written ("
                            + e
                            + "); choose a writable folder");
        }
        return dir;
    }

    /**
     * Writes the placeholder to {@code raw}; throws {@link CliException} naming --report and the
     * fix.
     */
    static Path claim(String raw) {
        if (raw.isBlank()) {
            throw new CliException("option --report needs a file name, e.g. --report report.html");
        }
        Path file = Path.of(raw).toAbsolutePath();
        if (Files.isDirectory(file)) {
            throw new CliException(
                    "option --report "
                            + raw
                            + " is a folder; name a file in it, e.g. "
                            + file.resolve("report.html"));
        }
        Path folder = file.getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new CliException(
                    "option --report "
                            + raw
                            + ": folder "
                            + folder
                            + " does not exist; create it first");
        }
        try {
            Files.writeString(file, PLACEHOLDER, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            throw new CliException(
                    "option --report "
                            + raw
                            + " cannot be written ("
                            + e
                            + "); choose a writable path");
        }
        return file;
    }
}
