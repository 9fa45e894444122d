package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.checkpoint.CheckpointStorage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flowscale run} on a folder an earlier run checkpointed into behaves as the runner does: it
 * resumes from the newest complete snapshot and says which, it deletes none of the earlier run's
 * snapshots, and {@code --start-fresh} starts from nothing while keeping them.
 */
class RunOnAUsedFolderTest {
    @TempDir Path dir;

    @Test
    void aSecondRunResumesFromTheFirstRunsNewestCheckpointAndKeepsThemAll() {
        Run firstRun = run();
        assertThat(firstRun.code).isZero();
        CheckpointStorage storage = new CheckpointStorage(dir);
        List<Path> first = storage.completedSnapshots();
        assertThat(first)
                .as("the first run checkpointed; it printed:%n%s", firstRun.out)
                .isNotEmpty();

        Run second = run();
        assertThat(second.code).as(second.err).isZero();
        assertThat(second.out)
                .contains(
                        "restore: restoring the latest complete snapshot in storage, "
                                + SnapshotName.of(first.get(0)));
        assertThat(first).allMatch(Files::isDirectory);
    }

    @Test
    void startFreshStartsFromNothingAndKeepsTheEarlierSnapshots() {
        assertThat(run().code).isZero();
        List<Path> first = new CheckpointStorage(dir).completedSnapshots();

        Run fresh = run("--start-fresh");
        assertThat(fresh.code).as(fresh.err).isZero();
        assertThat(fresh.out)
                .contains("restore: starting fresh (--start-fresh); the snapshots already in")
                .doesNotContain("restoring the latest");
        assertThat(first).allMatch(Files::isDirectory);
    }

    /** How the restore line names a snapshot: its type, id and folder. */
    private record SnapshotName() {
        static String of(Path snapshot) {
            String type =
                    snapshot.getParent().getFileName().toString().startsWith("savepoints")
                            ? "savepoint "
                            : "checkpoint ";
            return type + CheckpointStorage.idOf(snapshot) + " at " + snapshot;
        }
    }

    private record Run(int code, String out, String err) {}

    private Run run(String... extra) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args =
                new java.util.ArrayList<>(
                        List.of(
                                "run",
                                "wordcount",
                                "--rate",
                                "2000",
                                // --duration counts the start-up: leave a loaded machine time
                                "--duration",
                                "6s",
                                "--checkpoint-interval",
                                "200ms",
                                "--savepoint-dir",
                                dir.toString()));
        args.addAll(List.of(extra));
        int code =
                FlowscaleMain.run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
