package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.cli.EngineMain;
import dev.flowscale.engine.examples.WordCount;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The runner, in its own JVM with a 64 MB heap, asked to restore a snapshot whose state file has
 * one damaged length or count field (its CRC and the manifest recomputed, so only the size checks
 * can catch it): it exits 2 with one line naming the file and the value, never with an
 * OutOfMemoryError (issue 14 item 4 saw 129 of them under a 256 MB heap).
 */
class DamagedLengthInASmallHeapTest {
    private static final List<String> JOB =
            List.of(
                    "run",
                    "wordcount",
                    "--vocabulary",
                    "500",
                    "--rate",
                    "4000",
                    "--print-interval",
                    "10s");

    /** Far beyond a 64 MB heap if it were allocated, and still a valid non-negative int. */
    private static final int HUGE = 1 << 30;

    @TempDir static Path storage;
    private static Path checkpoint;

    /**
     * The real runner writes periodic checkpoints; the newest is the one damaged below. {@code
     * --duration} counts the runner's start-up too, so on a loaded machine a short run may end
     * before its first checkpoint completes: the run is repeated, each time twice as long (and
     * resuming from what the last one wrote), until one has.
     */
    @BeforeAll
    static void letTheRunnerWriteCheckpoints(@TempDir Path logs) throws Exception {
        List<Path> completed = List.of();
        for (int seconds = 1; completed.isEmpty() && seconds <= 32; seconds *= 2) {
            Run run =
                    runner(
                            logs,
                            List.of(),
                            "--duration",
                            seconds + "s",
                            "--checkpoint-interval",
                            "150ms",
                            "--savepoint-dir",
                            storage.toString());
            assertThat(run.exit).as(run.stderr).isZero();
            completed = new CheckpointStorage(storage).completedSnapshots();
        }
        assertThat(completed).as("a completed checkpoint after runs of up to 32 s").isNotEmpty();
        checkpoint = completed.get(0);
    }

    /**
     * Each length and count field of the first key group of instance 0 of 'count', and the file's
     * trailing counts.
     */
    static List<Field> fields() throws Exception {
        byte[] file = Files.readAllBytes(SnapshotFiles.stateFile(checkpoint, WordCount.COUNT, 0));
        ByteBuffer in = ByteBuffer.wrap(file);
        int body = SnapshotFiles.bodyOffset(file);
        int states = body + 12; // key group count, key group, block length
        int entries =
                states
                        + 4
                        + 2
                        + Short.toUnsignedInt(in.getShort(states + 4))
                        + 1; // block: states, UTF name, kind byte
        int keyLength =
                entries + 4 + 1; // the first entry's key: a type tag, then a string's byte length
        int valueLength = keyLength + 4 + in.getInt(keyLength);
        return List.of(
                new Field("count of key groups", body, Integer.MAX_VALUE),
                new Field("length of the first key group's block", body + 8, HUGE),
                new Field("count of states in the block", states, Integer.MAX_VALUE),
                new Field("count of entries of the first state", entries, Integer.MAX_VALUE),
                new Field("length of the first key", keyLength, HUGE),
                new Field("length of the first value", valueLength, HUGE),
                new Field("count of operator lists", file.length - 8, Integer.MAX_VALUE),
                new Field("count of source splits", file.length - 4, Integer.MAX_VALUE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void theRunnerRefusesADamagedFieldWithOneLineAndNoOutOfMemoryError(
            Field field, @TempDir Path dir) throws Exception {
        Path copy = SnapshotFiles.copyTree(checkpoint, dir, "damaged");
        byte[] content = Files.readAllBytes(SnapshotFiles.stateFile(copy, WordCount.COUNT, 0));
        ByteBuffer.wrap(content).putInt(field.offset, field.value);
        SnapshotFiles.rewriteStateFile(copy, WordCount.COUNT, 0, content);

        Run run =
                runner(
                        dir,
                        List.of("-Xmx64m"),
                        "--duration",
                        "1s",
                        "--savepoint-dir",
                        dir.resolve("storage").toString(),
                        "--restore-from",
                        copy.toString());
        assertThat(run.stdout + run.stderr)
                .doesNotContain("OutOfMemoryError")
                .doesNotContain("\tat ");
        assertThat(run.exit).as(run.stderr).isEqualTo(2);
        assertThat(run.stderr.lines().toList())
                .singleElement()
                .asString()
                .startsWith("error: snapshot")
                .contains(WordCount.COUNT + "-0.state")
                .contains(String.valueOf(field.value));
    }

    record Field(String name, int offset, int value) {
        @Override
        public String toString() {
            return name + " at byte " + offset + " set to " + value;
        }
    }

    private record Run(int exit, String stdout, String stderr) {}

    private static Run runner(Path dir, List<String> jvmOptions, String... options)
            throws Exception {
        List<String> args = new ArrayList<>(JOB);
        args.addAll(List.of(options));
        File out = dir.resolve("stdout.txt").toFile();
        File err = dir.resolve("stderr.txt").toFile();
        Process process =
                ChildJvm.command(jvmOptions, EngineMain.class.getName(), args)
                        .redirectOutput(out)
                        .redirectError(err)
                        .start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the runner exited").isTrue();
        } finally {
            process.destroyForcibly();
        }
        return new Run(
                process.exitValue(),
                Files.readString(out.toPath(), StandardCharsets.UTF_8),
                Files.readString(err.toPath(), StandardCharsets.UTF_8));
    }
}
