package dev.flowscale.charts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The file Prometheus discovers its targets in ({@code file_sd_configs}): rewritten whole and
 * renamed into place, so Prometheus never reads half a file, whenever a runner starts on a new
 * port.
 */
final class ScrapeTargets {
    private final Path file;

    ScrapeTargets(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** Makes {@code endpoints} (base URIs such as http://127.0.0.1:9249) the only targets. */
    synchronized void set(List<URI> endpoints) {
        String targets =
                endpoints.stream()
                        .map(u -> "\"" + u.getHost() + ":" + u.getPort() + "\"")
                        .collect(Collectors.joining(", "));
        try {
            Path temp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temp, "[{\"targets\": [" + targets + "]}]\n");
            Files.move(
                    temp,
                    file,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot write the scrape targets " + file + ": " + e.getMessage(), e);
        }
    }
}
