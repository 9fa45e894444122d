package dev.flowscale.engine.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The folders where this process's RocksDB stores keep their files. Under a local directory, each
 * process works in a folder of its own, named after its owner: {@code HOST_PID_STARTMILLIS} (the
 * process's start time tells a reused pid from the owner), with an {@value #OWNER} file saying the
 * same for people. The folder is deleted when the process exits normally (a shutdown hook); a
 * process killed with SIGKILL or by the OOM killer leaves it, and the next process that uses the
 * same local directory deletes it: on first use of a directory, every sibling folder of this host
 * whose owner is no longer alive is reclaimed. A live owner's folder is never touched, nor a folder
 * of another host (its owner cannot be checked from here).
 */
public final class WorkingFolders {
    static final String OWNER = "_owner";
    private static final String HOST = host();
    private static final ProcessHandle SELF = ProcessHandle.current();
    private static final Map<Path, Path> OWN = new HashMap<>();

    private WorkingFolders() {}

    /**
     * This process's folder under {@code parent} (created, with its owner file, on first use; dead
     * owners' folders reclaimed then).
     */
    public static synchronized Path of(Path parent) throws IOException {
        Path key = parent.toAbsolutePath().normalize();
        Path own = OWN.get(key);
        if (own != null && Files.isDirectory(own)) {
            return own;
        }
        Files.createDirectories(key);
        reclaim(key);
        own = Files.createDirectories(key.resolve(nameOf(SELF)));
        Files.writeString(own.resolve(OWNER), describe(SELF), StandardCharsets.UTF_8);
        OWN.put(key, own);
        deleteAtExit(own);
        return own;
    }

    /**
     * Deletes every folder under {@code parent} that a process of this host owned and that process
     * is no longer alive; returns the folders deleted.
     */
    public static List<Path> reclaim(Path parent) throws IOException {
        List<Path> reclaimed = new ArrayList<>();
        if (!Files.isDirectory(parent)) {
            return reclaimed;
        }
        try (Stream<Path> children = Files.list(parent)) {
            for (Path child : children.filter(Files::isDirectory).toList()) {
                Optional<Owner> owner = Owner.parse(child.getFileName().toString());
                if (owner.isPresent() && owner.get().host().equals(HOST) && !owner.get().alive()) {
                    delete(child);
                    reclaimed.add(child);
                }
            }
        }
        return reclaimed;
    }

    /** A folder's owner as its name gives it. */
    record Owner(String host, long pid, long startMillis) {
        static Optional<Owner> parse(String name) {
            int last = name.lastIndexOf('_');
            int middle = last < 0 ? -1 : name.lastIndexOf('_', last - 1);
            if (middle <= 0) {
                return Optional.empty();
            }
            try {
                return Optional.of(
                        new Owner(
                                name.substring(0, middle),
                                Long.parseLong(name.substring(middle + 1, last)),
                                Long.parseLong(name.substring(last + 1))));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }

        /**
         * Whether the owner still runs: its pid is alive and started when the name says (a pid the
         * system gave to another process since does not count). A live pid whose start time cannot
         * be read counts as the owner.
         */
        boolean alive() {
            Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
            return process.isPresent()
                    && process.get()
                            .info()
                            .startInstant()
                            .map(start -> start.toEpochMilli() == startMillis)
                            .orElse(true);
        }
    }

    static String nameOf(ProcessHandle process) {
        return HOST + "_" + process.pid() + "_" + startMillis(process);
    }

    private static long startMillis(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    private static String describe(ProcessHandle process) {
        return "host "
                + HOST
                + "\npid "
                + process.pid()
                + "\nstarted "
                + process.info().startInstant().map(Instant::toString).orElse("unknown")
                + "\ncommand "
                + process.info().command().orElse("unknown")
                + "\n";
    }

    private static String host() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        // '_' separates the parts of a folder's name; no host name needs it.
        return name.replaceAll("[^A-Za-z0-9.-]", "-");
    }

    private static void deleteAtExit(Path own) {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> delete(own), "flowscale-working-folder-cleanup"));
    }

    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // What stays behind (a file vanishing under the walk) is reclaimed by the next start.
        }
    }
}
