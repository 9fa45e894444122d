package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner process ({@link CountingRunner}) killed with SIGKILL again and again while it writes
 * periodic checkpoints, each time restarted on the same storage: every restart resumes from the
 * newest snapshot that verifies (and says which), skipping the half-written ones with a log line,
 * and the run that finally gets to the end has counted every key exactly.
 */
class RunnerKilledDuringCheckpointsIT {
    private static final int KILLS = 20;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration FINISH =
            WAIT.plusSeconds(CountingRunner.RECORDS / CountingRunner.RATE);

    @Test
    void aRunnerKilledWhileWritingCheckpointsResumesEachTimeAndEndsWithExactCounts(
            @TempDir Path storage) throws Exception {
        List<Kill> kills = new ArrayList<>();
        Path savepoint = null;
        for (int kill = 0; kill < KILLS && savepoint == null; kill++) {
            Kill next = startAndKill(storage, kill);
            if (next.writing() == null) { // the stream ended before the checkpoint to kill in
                savepoint = next.resumedFrom();
            } else {
                kills.add(next);
            }
        }
        Path last = newestRestorable(storage);
        if (savepoint == null) {
            List<Path> passedOver = passedOver(storage, last);
            try (Runner runner = Runner.start(storage)) {
                // The rest of the stream: up to RECORDS / RATE if every kill lost all its progress.
                savepoint = finalSavepoint(runner.awaitLine("final ", FINISH));
                assertResumedFrom(runner, last, passedOver);
                assertThat(runner.exit()).isZero();
            }
        }
        kills.forEach(System.out::println);
        long cut = kills.stream().filter(Kill::cut).count();
        System.out.printf(
                "%d kills, %d of them while a checkpoint was being written; the last run resumed from %s%n",
                kills.size(), cut, name(last));
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                savepoint,
                                CountingRunner.GRAPH,
                                CountingJob.COUNT,
                                CountingJob.COUNT_STATE))
                .isEqualTo(CountingJob.expected(CountingRunner.RECORDS, CountingRunner.KEYS));
        assertThat(cut).as("kills that cut a checkpoint short").isPositive();
    }

    /**
     * Starts a runner, checks what it resumed from, and kills it while it writes its 1st, 2nd or
     * 3rd checkpoint, 0 to 24 ms after that checkpoint's folder appeared (staggered by {@code
     * kill}). The stream's schedule runs from the first start, so on a loaded machine, where the
     * restarts take longer than the stream, a runner may count everything and stop before that
     * checkpoint: then the result holds its final savepoint (as resumedFrom) and no checkpoint.
     */
    private static Kill startAndKill(Path storage, int kill) throws Exception {
        Path expected = newestRestorable(storage);
        List<Path> passedOver = passedOver(storage, expected);
        try (Runner runner = Runner.start(storage)) {
            runner.awaitLine("running", WAIT);
            assertResumedFrom(runner, expected, passedOver);
            Path writing =
                    awaitNewCheckpoint(storage, runner, highestCheckpoint(storage) + 1 + kill % 3);
            if (writing == null) {
                assertThat(runner.exit()).isZero();
                return new Kill(
                        kill + 1,
                        finalSavepoint(runner.awaitLine("final ", WAIT)),
                        passedOver,
                        null,
                        false);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos((kill * 7L) % 25));
            runner.kill();
            boolean cut = !Files.exists(writing.resolve(SnapshotMetadata.FILE_NAME));
            return new Kill(kill + 1, expected, passedOver, writing, cut);
        }
    }

    /**
     * One kill: what the runner had resumed from and passed over, and the checkpoint it was
     * writing.
     */
    private record Kill(
            int number, Path resumedFrom, List<Path> passedOver, Path writing, boolean cut) {
        @Override
        public String toString() {
            return "kill "
                    + number
                    + ": resumed from "
                    + name(resumedFrom)
                    + " passing over "
                    + passedOver.stream().map(p -> p.getFileName().toString()).toList()
                    + ", killed "
                    + (cut ? "while writing " : "after committing ")
                    + writing.getFileName();
        }
    }

    /**
     * The runner's last restore line names {@code expected} (or a fresh start when it is null), and
     * every snapshot it had to pass over, half-written or refused, was named in a line of its own.
     */
    private static void assertResumedFrom(Runner runner, Path expected, List<Path> passedOver) {
        List<String> restore =
                runner.lines().stream().filter(l -> l.startsWith("restore: ")).toList();
        assertThat(restore).as("restore lines").isNotEmpty();
        assertThat(restore.get(restore.size() - 1))
                .as("what the runner restored")
                .contains(
                        expected == null
                                ? "starting fresh"
                                : "restoring the latest complete snapshot in storage, ")
                .contains(expected == null ? "" : expected + " ");
        List<String> skipped = restore.subList(0, restore.size() - 1);
        assertThat(skipped)
                .as("lines other than the choice")
                .allMatch(l -> l.startsWith("restore: skipping "));
        for (Path dir : passedOver) {
            assertThat(skipped)
                    .as("a line for " + dir)
                    .anyMatch(l -> l.contains("snapshot " + dir + ": "));
        }
    }

    /**
     * Half-written snapshots, and complete ones newer than {@code expected} that the reader
     * refuses.
     */
    private static List<Path> passedOver(Path storage, Path expected) {
        CheckpointStorage snapshots = new CheckpointStorage(storage);
        List<Path> passed = new ArrayList<>(snapshots.incompleteSnapshots());
        long chosen = expected == null ? -1 : CheckpointStorage.idOf(expected);
        snapshots.completedSnapshots().stream()
                .filter(s -> CheckpointStorage.idOf(s) > chosen)
                .forEach(passed::add);
        return passed;
    }

    /** The snapshot a runner must resume from: the newest complete one that the reader accepts. */
    private static Path newestRestorable(Path storage) {
        for (Path candidate : new CheckpointStorage(storage).completedSnapshots()) {
            try {
                SnapshotReader.read(candidate, CountingRunner.GRAPH);
                return candidate;
            } catch (SnapshotException e) {
                // Refused: the runner must skip it too, with a line (checked in assertResumedFrom).
            }
        }
        return null;
    }

    private static long highestCheckpoint(Path storage) {
        return new CheckpointStorage(storage).highestId();
    }

    private static Path finalSavepoint(String line) {
        return Path.of(line.substring("final ".length()));
    }

    /**
     * Polls (every 0.2 ms, so the kill lands early in the write) until checkpoint {@code id}'s
     * folder exists; null if the runner counted every record and stopped first.
     */
    private static Path awaitNewCheckpoint(Path storage, Runner runner, long id) {
        Path dir = storage.resolve("checkpoints").resolve("chk-" + id);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!Files.isDirectory(dir)) {
            if (runner.lines().stream().anyMatch(l -> l.startsWith("final "))) {
                return null;
            }
            assertThat(runner.process.isAlive())
                    .as("the runner is still running; it said " + runner.lines())
                    .isTrue();
            assertThat(System.nanoTime())
                    .as("checkpoint " + id + " started in time")
                    .isLessThan(deadline);
            LockSupport.parkNanos(200_000);
        }
        return dir;
    }

    private static String name(Path snapshot) {
        return snapshot == null ? "nothing (fresh start)" : snapshot.getFileName().toString();
    }

    /** A {@link CountingRunner} child process and the lines it printed. */
    private record Runner(Process process, List<String> lines, Thread reader)
            implements AutoCloseable {
        static Runner start(Path storage) throws IOException {
            Process process = ChildJvm.start(CountingRunner.class, storage.toString());
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread reader =
                    new Thread(
                            () -> {
                                try (BufferedReader in =
                                        new BufferedReader(
                                                new InputStreamReader(
                                                        process.getInputStream(),
                                                        StandardCharsets.UTF_8))) {
                                    in.lines().forEach(lines::add);
                                } catch (IOException | java.io.UncheckedIOException e) {
                                    // The process was killed: its output ends here.
                                }
                            },
                            "runner-output");
            reader.setDaemon(true);
            reader.start();
            return new Runner(process, lines, reader);
        }

        /** Waits for a line starting with {@code prefix} and returns it. */
        String awaitLine(String prefix, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                for (String line : lines) {
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
                assertThat(process.isAlive() || reader.isAlive())
                        .as("the runner ended without '" + prefix + "'; it said " + lines)
                        .isTrue();
                assertThat(System.nanoTime())
                        .as("'" + prefix + "' in time; the runner said " + lines)
                        .isLessThan(deadline);
                LockSupport.parkNanos(1_000_000);
            }
        }

        /** SIGKILL on Linux: no shutdown hook, no final snapshot, files as they are. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the runner died")
                    .isTrue();
        }

        int exit() throws InterruptedException {
            assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the runner exited")
                    .isTrue();
            return process.exitValue();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
