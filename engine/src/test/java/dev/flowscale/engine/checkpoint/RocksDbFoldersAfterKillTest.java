package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RocksDB runners in child JVMs sharing one local directory: a runner killed with SIGKILL leaves
 * its working folder, the next runner to start there reclaims it, a live runner's folder is left
 * alone, a runner that exits normally removes its own; and no runner extracts RocksDB's native
 * library into its temporary folder (it is loaded from one cache folder).
 */
class RocksDbFoldersAfterKillTest {
    @TempDir Path dir;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() {
        children.forEach(Process::destroyForcibly);
    }

    @Test
    @Timeout(120)
    void aKilledRunnersFoldersAreReclaimedByTheNextAndALiveRunnersAreNot() throws Exception {
        Path local = dir.resolve("local");
        Process killed = runner("killed", local);
        Path killedFolder = folderOf(local, killed);
        assertThat(storeFolders(killedFolder)).isNotEmpty();
        killed.destroyForcibly();
        assertThat(killed.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(killedFolder).as("SIGKILL runs no clean-up").isDirectory();

        Process live = runner("live", local);
        Path liveFolder = folderOf(local, live);
        assertThat(killedFolder).as("reclaimed by the next start").doesNotExist();

        Process next = runner("next", local);
        Path nextFolder = folderOf(local, next);
        assertThat(liveFolder).as("a live runner's folder").isDirectory();
        assertThat(storeFolders(liveFolder)).isNotEmpty();

        stop(next);
        assertThat(nextFolder).as("removed at a clean exit").doesNotExist();
        assertThat(liveFolder).isDirectory();
        stop(live);
        try (Stream<Path> left = Files.list(local)) {
            assertThat(left).isEmpty();
        }
        try (Stream<Path> tmp = Files.walk(dir.resolve("tmp"))) {
            assertThat(tmp.map(p -> p.getFileName().toString()))
                    .noneMatch(name -> name.contains("rocksdbjni"));
        }
        try (Stream<Path> cache = Files.walk(dir.resolve("cache"))) {
            assertThat(cache.filter(p -> p.getFileName().toString().endsWith(".so")))
                    .as("the native library, extracted once for the three runners")
                    .hasSize(1);
        }
    }

    /** Starts a RocksDB runner on its own storage and {@code local}; returns once it runs. */
    private Process runner(String name, Path local) throws IOException {
        Files.createDirectories(dir.resolve("tmp"));
        ProcessBuilder builder =
                ChildJvm.command(
                        List.of("-Djava.io.tmpdir=" + dir.resolve("tmp")),
                        RocksDbRunner.class.getName(),
                        List.of(dir.resolve(name).toString(), local.toString()));
        builder.environment().put("FLOWSCALE_CACHE_DIR", dir.resolve("cache").toString());
        Process child = builder.redirectErrorStream(true).start();
        children.add(child);
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); !"running".equals(line); line = out.readLine()) {
            assertThat(line).as("runner '" + name + "' ended before it ran").isNotNull();
        }
        return child;
    }

    /** Asks a runner to close its job and exit normally. */
    private static void stop(Process child) throws Exception {
        child.getOutputStream().write("stop\n".getBytes(StandardCharsets.UTF_8));
        child.getOutputStream().flush();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
    }

    /** The one working folder under {@code local} named after {@code child}'s pid. */
    private static Path folderOf(Path local, Process child) throws IOException {
        try (Stream<Path> folders = Files.list(local)) {
            List<Path> own =
                    folders.filter(
                                    f ->
                                            f.getFileName()
                                                    .toString()
                                                    .contains("_" + child.pid() + "_"))
                            .toList();
            assertThat(own).hasSize(1);
            assertThat(own.get(0).resolve("_owner")).content().contains("pid " + child.pid());
            return own.get(0);
        }
    }

    private static List<Path> storeFolders(Path folder) throws IOException {
        try (Stream<Path> stores = Files.list(folder)) {
            return stores.filter(Files::isDirectory).toList();
        }
    }

    /**
     * A RocksDB runner of the counting job: {@code args[0]} its storage, {@code args[1]} its local
     * directory. Prints {@code running} once its tasks (and their stores) have started; closes the
     * job and exits 0 on a line on stdin.
     */
    public static final class RocksDbRunner {
        public static void main(String[] args) throws Exception {
            JobConfig config =
                    JobConfig.defaults()
                            .withStateBackend(
                                    StateBackendConfig.rocksDb().withLocalDir(Path.of(args[1])))
                            .withCheckpointing(CheckpointConfig.savepointsOnly(Path.of(args[0])));
            try (RunningJob job =
                    RunningJob.start(
                            CountingJob.graph(
                                    RateProfile.constant(200),
                                    1_000_000,
                                    20,
                                    Map.of(CountingJob.COUNT, 2),
                                    x -> x),
                            config)) {
                job.awaitRunning(Duration.ofSeconds(60));
                System.out.println("running");
                System.out.flush();
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                        .readLine();
            }
            System.exit(0);
        }
    }
}
