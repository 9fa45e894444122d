package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner killed while it writes a checkpoint, at many offsets into that checkpoint's bytes (its
 * state files in order, then its manifest): the next runner on the storage resumes from the
 * previous complete checkpoint and ends with exact per-key counts. The same holds when the newest
 * checkpoint did commit but one of its files was later cut short.
 */
class CrashDuringCheckpointTest {
    private static final long RECORDS = 60_000;
    private static final int KEYS = 300;
    private static final JobGraph GRAPH =
            CountingJob.graph(
                    RateProfile.constant(60_000),
                    RECORDS,
                    KEYS,
                    Map.of(CountingJob.MAP, 2, CountingJob.COUNT, 3),
                    x -> x);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir static Path original;
    private static Path previous;
    private static Path newest;

    /**
     * Takes two checkpoints mid-stream, then drops the runner as a kill would (no final snapshot).
     */
    @BeforeAll
    static void runUntilTwoCheckpointsAndDie() throws Exception {
        try (RunningJob job = RunningJob.start(GRAPH, config(original))) {
            assertThat(job.awaitRunning(WAIT)).isTrue();
            previous = job.triggerCheckpoint().get(20, TimeUnit.SECONDS);
            newest = job.triggerCheckpoint().get(20, TimeUnit.SECONDS);
            job.cancel();
        }
    }

    private static JobConfig config(Path dir) {
        return JobConfig.defaults()
                .withBatchSize(128)
                .withCheckpointing(CheckpointConfig.savepointsOnly(dir));
    }

    @Test
    void aCheckpointCutAtAnyOffsetIsNeverRestoredAndThePreviousOneIs(@TempDir Path dir)
            throws IOException {
        List<Path> parts = writeOrder(newest);
        long total = parts.stream().mapToLong(CrashDuringCheckpointTest::size).sum();
        for (long offset : offsets(parts, total)) {
            Path storage = SnapshotFiles.copyTree(original, dir, "cut-" + offset);
            cut(storage.resolve(original.relativize(newest).toString()), parts, offset);
            Recovery recovery =
                    Recovery.choose(new CheckpointStorage(storage), null, GRAPH, line -> {});
            assertThat(recovery.restored().path().getFileName())
                    .as("restored after a cut at byte " + offset + " of " + total)
                    .isEqualTo(offset == total ? newest.getFileName() : previous.getFileName());
        }
    }

    @Test
    void aCommittedCheckpointWithAFileCutShortIsSkippedWithALogLine(@TempDir Path dir)
            throws IOException {
        List<Path> files = writeOrder(newest).subList(0, writeOrder(newest).size() - 1);
        for (Path file : files) {
            for (long keep : new long[] {0, 1, size(file) / 2, size(file) - 1}) {
                Path storage =
                        SnapshotFiles.copyTree(
                                original, dir, "short-" + file.getFileName() + "-" + keep);
                try (RandomAccessFile raf =
                        new RandomAccessFile(
                                storage.resolve(original.relativize(file).toString()).toFile(),
                                "rw")) {
                    raf.setLength(keep);
                }
                List<String> log = new ArrayList<>();
                Recovery recovery =
                        Recovery.choose(new CheckpointStorage(storage), null, GRAPH, log::add);
                assertThat(recovery.restored().path().getFileName())
                        .isEqualTo(previous.getFileName());
                assertThat(log)
                        .singleElement()
                        .asString()
                        .contains("skipping snapshot")
                        .contains("truncated");
            }
        }
    }

    @Test
    void theNextRunnerResumesFromThePreviousCheckpointWithExactCounts(@TempDir Path dir)
            throws Exception {
        List<Path> parts = writeOrder(newest);
        long total = parts.stream().mapToLong(CrashDuringCheckpointTest::size).sum();
        for (long offset : new long[] {0, total / 2, total - 1}) {
            Path storage = SnapshotFiles.copyTree(original, dir, "run-" + offset);
            cut(storage.resolve(original.relativize(newest).toString()), parts, offset);
            List<String> log = new ArrayList<>();
            try (RunningJob job = RunningJob.recover(GRAPH, config(storage), null, log::add)) {
                assertThat(log)
                        .last()
                        .asString()
                        .contains("restoring the latest complete snapshot in storage")
                        .contains(previous.getFileName().toString());
                CountingJob.awaitQuiescence(job, WAIT);
                Path end = job.stopWithSavepoint(WAIT);
                assertThat(
                                SnapshotInspector.mergedKeyedState(
                                        end, GRAPH, CountingJob.COUNT, CountingJob.COUNT_STATE))
                        .as("counts after a cut at byte " + offset)
                        .isEqualTo(CountingJob.expected(RECORDS, KEYS));
            }
        }
    }

    /** The checkpoint's state files in name order, then its manifest, which is committed last. */
    private static List<Path> writeOrder(Path snapshot) throws IOException {
        List<Path> parts = new ArrayList<>();
        try (Stream<Path> files = Files.list(snapshot)) {
            files.filter(f -> !f.getFileName().toString().equals(SnapshotMetadata.FILE_NAME))
                    .sorted()
                    .forEach(parts::add);
        }
        parts.add(snapshot.resolve(SnapshotMetadata.FILE_NAME));
        return parts;
    }

    /** Every file boundary and its neighbours, plus 40 offsets spread over the whole checkpoint. */
    private static TreeSet<Long> offsets(List<Path> parts, long total) {
        TreeSet<Long> offsets = new TreeSet<>();
        long boundary = 0;
        for (Path part : parts) {
            offsets.addAll(List.of(boundary, boundary + 1, Math.max(0, boundary - 1)));
            boundary += size(part);
        }
        for (int i = 0; i <= 40; i++) {
            offsets.add(total * i / 40);
        }
        offsets.add(total - 1);
        offsets.removeIf(o -> o < 0 || o > total);
        return offsets;
    }

    /**
     * Leaves the checkpoint as a crash after {@code offset} bytes would: parts before it whole, the
     * part it falls in cut short, later parts absent. A manifest is only ever renamed into place
     * whole, so a cut one stays behind as its temporary file.
     */
    private static void cut(Path copy, List<Path> parts, long offset) throws IOException {
        long start = 0;
        for (Path part : parts) {
            Path file = copy.resolve(part.getFileName().toString());
            long size = size(part);
            boolean manifest = part.getFileName().toString().equals(SnapshotMetadata.FILE_NAME);
            if (offset >= start + size) {
                start += size;
                continue;
            }
            if (offset <= start) {
                Files.delete(file);
            } else if (manifest) {
                Path tmp = copy.resolve(SnapshotMetadata.FILE_NAME + ".tmp");
                Files.move(file, tmp);
                truncate(tmp, offset - start);
            } else {
                truncate(file, offset - start);
            }
            start += size;
        }
    }

    private static void truncate(Path file, long length) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(length);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
