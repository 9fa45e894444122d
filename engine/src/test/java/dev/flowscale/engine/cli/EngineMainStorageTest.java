package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.checkpoint.StorageOwner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's snapshot storage from its command line: checked at start, owned, and resumed from.
 */
class EngineMainStorageTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return EngineMain.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSavepointDirThatCannotBeWrittenIsAnErrorAtStartWithoutAStackTrace(@TempDir Path dir)
            throws Exception {
        Path file = Files.createFile(dir.resolve("a-file"));
        assertThat(
                        run(
                                "run",
                                "wordcount",
                                "--duration",
                                "1s",
                                "--savepoint-dir",
                                file.resolve("data").toString()))
                .isEqualTo(2);
        assertThat(errors())
                .startsWith(
                        "error: snapshot storage " + file.resolve("data") + " cannot be written")
                .contains("give --savepoint-dir a folder")
                .doesNotContain("\tat ");
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("Summary");
    }

    @Test
    void theCheckpointToleranceIsADurationAndTheOldCountOptionNamesIt() {
        assertThat(run("run", "wordcount", "--checkpoint-failures", "3")).isEqualTo(2);
        assertThat(errors())
                .contains("--checkpoint-failures")
                .contains("replaced by --checkpoint-tolerance D")
                .doesNotContain("\tat ");
        err.reset();
        assertThat(run("run", "wordcount", "--checkpoint-tolerance", "3")).isEqualTo(2);
        assertThat(errors())
                .contains("--checkpoint-tolerance")
                .contains("unit")
                .doesNotContain("\tat ");
    }

    @Test
    void aSnapshotKeyTooShortIsAnErrorAtStartInOneLine(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(dir.resolve("key"), "short\n");
        assertThat(
                        run(
                                "run",
                                "wordcount",
                                "--duration",
                                "1s",
                                "--savepoint-dir",
                                dir.resolve("data").toString(),
                                "--snapshot-key-file",
                                key.toString()))
                .isEqualTo(2);
        assertThat(errors())
                .isEqualTo(
                        "error: option --snapshot-key-file "
                                + key
                                + " holds a snapshot key of 5 bytes; give at least 32 (e.g. the"
                                + " output of 'openssl rand -hex 32')"
                                + System.lineSeparator());
    }

    @Test
    void aSecondRunnerOnTheSameFolderIsRefusedNamingTheOwner(@TempDir Path dir) {
        try (StorageOwner first = StorageOwner.acquire(dir, "wordcount", Clock.systemUTC())) {
            assertThat(
                            run(
                                    "run",
                                    "wordcount",
                                    "--duration",
                                    "1s",
                                    "--savepoint-dir",
                                    dir.toString()))
                    .isEqualTo(2);
            assertThat(errors())
                    .startsWith("error: snapshot storage " + dir + " is in use by another runner")
                    .contains("pid " + ProcessHandle.current().pid())
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void aRunnerResumesFromTheNewestCheckpointInItsStorageAndSaysSo(@TempDir Path dir) {
        String[] args = {
            "run",
            "wordcount",
            "--duration",
            "1s",
            "--rate",
            "5000",
            "--checkpoint-interval",
            "200ms",
            "--retain",
            "2",
            "--savepoint-dir",
            dir.toString()
        };
        assertThat(run(args)).as(errors()).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("restore: no complete snapshot in " + dir + ": starting fresh");
        // On a loaded machine a 1 s run can end before its first checkpoint completes: run again
        // (from nothing, as the storage holds no complete snapshot) until one has.
        for (int i = 0; i < 5 && new CheckpointStorage(dir).completedSnapshots().isEmpty(); i++) {
            assertThat(run(args)).as(errors()).isZero();
        }
        assertThat(new CheckpointStorage(dir).completedSnapshots())
                .as("a first run completed a checkpoint")
                .isNotEmpty();
        List<String> first = List.of(dir.resolve("checkpoints").toFile().list());
        out.reset();
        assertThat(run(args)).as(errors()).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .containsPattern(
                        "restore: restoring the latest complete snapshot in storage, checkpoint \\d+ at ");
        String restored =
                out.toString(StandardCharsets.UTF_8)
                        .replaceAll("(?s).*checkpoint \\d+ at \\S*(chk-\\d+).*", "$1");
        List<String> kept = List.of(dir.resolve("checkpoints").toFile().list());
        assertThat(kept)
                .as("a run never deletes snapshots it did not write")
                .containsAll(first)
                .contains(restored);
        assertThat(kept.stream().filter(name -> !first.contains(name)))
                .as("--retain 2 keeps two of the second run's own")
                .hasSizeLessThanOrEqualTo(2);
    }
}
