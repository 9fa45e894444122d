package dev.flowscale.charts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The file Prometheus discovers its targets in ({@code file_sd_configs}): rewritten whole and
 * renamed into place, so Prometheus never reads half a file, whenever a runner starts on a new
 * port.
 */
final class ScrapeTargets {
    private final Path file;

    /** Targets scraped whatever {@link #set} names: runners that are never replaced. */
    private final List<URI> fixed = new ArrayList<>();

    private List<URI> current = List.of();

    ScrapeTargets(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** Adds a target kept through every later {@link #set}. */
    synchronized void addFixed(URI endpoint) {
        fixed.add(endpoint);
        set(current);
    }

    /**
     * Makes {@code endpoints} (base URIs such as http://127.0.0.1:9249) the targets, with the fixed
     * ones.
     */
    synchronized void set(List<URI> endpoints) {
        current = List.copyOf(endpoints);
        List<URI> all = new ArrayList<>(fixed);
        all.addAll(endpoints);
        String targets =
                all.stream()
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
