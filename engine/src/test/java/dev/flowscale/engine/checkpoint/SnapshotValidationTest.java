package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.OperatorRuntimeContext;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.testsupport.Await;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Missing, truncated, corrupt, unknown-version and mismatched snapshots fail with the documented
 * errors.
 */
class SnapshotValidationTest {
    private static final long RECORDS = 3_000;
    private static final int KEYS = 50;
    private static final JobGraph GRAPH =
            CountingJob.graph(RECORDS, KEYS, Map.of(CountingJob.COUNT, 2));

    @TempDir static Path storage;
    private static Path good;

    @BeforeAll
    static void takeAGoodSavepoint() throws Exception {
        try (RunningJob job = RunningJob.start(GRAPH, config(storage))) {
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(20));
            good = job.stopWithSavepoint(Duration.ofSeconds(20));
        }
    }

    private static JobConfig config(Path dir) {
        return JobConfig.defaults().withCheckpointing(CheckpointConfig.savepointsOnly(dir));
    }

    @Test
    void aMissingSavepointNamesThePath(@TempDir Path dir) {
        Path missing = dir.resolve("no-such-savepoint");
        assertThatThrownBy(() -> RunningJob.start(GRAPH, config(dir), missing))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("_metadata is missing");
    }

    @Test
    void aTruncatedStateFileIsRejected(@TempDir Path dir) throws IOException {
        Path copy = copyOf(good, dir);
        Path file = stateFile(copy);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() / 2);
        }
        assertThatThrownBy(() -> RunningJob.start(GRAPH, config(dir), copy))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining(copy.toString())
                .hasMessageContaining(file.getFileName().toString())
                .hasMessageContaining("truncated");
    }

    @Test
    void aCorruptStateFileFailsItsChecksum(@TempDir Path dir) throws IOException {
        Path copy = copyOf(good, dir);
        Path file = stateFile(copy);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(raf.length() - 3);
            int b = raf.read();
            raf.seek(raf.length() - 3);
            raf.write(b ^ 0x5A);
        }
        assertThatThrownBy(() -> RunningJob.start(GRAPH, config(dir), copy))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("is corrupt")
                .hasMessageContaining("checksum");
    }

    @Test
    void anUnknownFormatVersionIsRejected(@TempDir Path dir) throws IOException {
        Path copy = copyOf(good, dir);
        Path metadata = copy.resolve(SnapshotMetadata.FILE_NAME);
        Files.writeString(
                metadata,
                Files.readString(metadata)
                        .replace(
                                "\"formatVersion\" : " + SnapshotMetadata.FORMAT_VERSION,
                                "\"formatVersion\" : 99"));
        assertThatThrownBy(() -> RunningJob.start(GRAPH, config(dir), copy))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("format version 99")
                .hasMessageContaining("reads versions 2 to 3");
    }

    @Test
    void aManifestThatIsNotJsonIsCorrupt(@TempDir Path dir) throws IOException {
        Path copy = copyOf(good, dir);
        Files.writeString(
                copy.resolve(SnapshotMetadata.FILE_NAME),
                "{ \"formatVersion\": 1, ",
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RunningJob.start(GRAPH, config(dir), copy))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("is corrupt")
                .hasMessageContaining("not valid JSON");
    }

    @Test
    void aSavepointOfAnotherTopologyIsRejected(@TempDir Path dir) {
        JobBuilder other = JobBuilder.named("counting");
        other.source(CountingJob.SOURCE, Sources.sequence(10))
                .map("renamed", x -> x)
                .sink("sink", Sinks.counting());
        assertThatThrownBy(() -> RunningJob.start(other.build(), config(dir), good))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("operator ids do not match")
                .hasMessageContaining("[" + CountingJob.MAP + ", " + CountingJob.COUNT + "]");
    }

    @Test
    void aCrashBeforeTheManifestLeavesNoRestorableSavepointAndThePreviousStillRestores(
            @TempDir Path dir) throws Exception {
        Path crashed = copyOf(good, dir);
        Path manifest = crashed.resolve(SnapshotMetadata.FILE_NAME);
        Files.move(manifest, crashed.resolve(SnapshotMetadata.FILE_NAME + ".tmp"));
        assertThatThrownBy(() -> RunningJob.start(GRAPH, config(dir), crashed))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("never completed");
        try (RunningJob restored = RunningJob.start(GRAPH, config(dir), good)) {
            CountingJob.awaitQuiescence(restored, Duration.ofSeconds(20));
            Path after = restored.stopWithSavepoint(Duration.ofSeconds(20));
            assertThat(
                            SnapshotInspector.mergedKeyedState(
                                    after, GRAPH, CountingJob.COUNT, CountingJob.COUNT_STATE))
                    .isEqualTo(CountingJob.expected(RECORDS, KEYS));
        }
    }

    @Test
    void aRescaleAboveKeyGroupsIsRejectedBeforeAnythingStops(@TempDir Path dir) throws Exception {
        try (RunningJob job = RunningJob.start(GRAPH, config(dir))) {
            String runBefore = job.metrics().runId();
            assertThatThrownBy(
                            () ->
                                    job.rescale(
                                            Map.of(CountingJob.COUNT, 129), Duration.ofSeconds(5)))
                    .isInstanceOf(InvalidJobException.class)
                    .hasMessageContaining("operator 'count'")
                    .hasMessageContaining("is more than the job's 128 key groups");
            assertThatThrownBy(() -> job.rescale(Map.of("nope", 2), Duration.ofSeconds(5)))
                    .isInstanceOf(InvalidJobException.class)
                    .hasMessageContaining("no operator 'nope'");
            assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
            assertThat(job.metrics().runId()).isEqualTo(runBefore);
        }
    }

    @Test
    void operatorListStateIsSplitAndUnionStateIsBroadcastOnRestore(@TempDir Path dir)
            throws Exception {
        JobBuilder builder = JobBuilder.named("lists");
        builder.source("src", Sources.replayable(null, 900, seq -> seq))
                .process("remember", Remember::new)
                .parallelism(3)
                .sink("sink", Sinks.counting());
        JobGraph graph = builder.build();
        Path savepoint;
        try (RunningJob job = RunningJob.start(graph, config(dir))) {
            awaitRecords(job, "remember", 900);
            savepoint = job.stopWithSavepoint(Duration.ofSeconds(20));
        }
        for (int p : new int[] {1, 2, 5}) {
            RestoredState restored =
                    SnapshotReader.read(savepoint, graph.withParallelism(Map.of("remember", p)));
            int split = 0;
            for (int i = 0; i < p; i++) {
                RestoredState.InstanceRestore instance = restored.instance("remember", i);
                split += instance.operatorLists().get("seen").elements().size();
                assertThat(instance.operatorLists().get("all").elements())
                        .as("union list on instance " + i)
                        .hasSize(900);
            }
            assertThat(split).as("split list over " + p + " instances").isEqualTo(900);
        }
    }

    private static void awaitRecords(RunningJob job, String operator, long records) {
        Await.until(
                Duration.ofSeconds(20),
                records + " records to reach " + operator,
                () ->
                        job.metrics().instancesOf(operator).stream()
                                        .mapToLong(i -> i.recordsIn())
                                        .sum()
                                >= records);
    }

    private static Path stateFile(Path snapshot) throws IOException {
        try (Stream<Path> files = Files.list(snapshot)) {
            return files.filter(p -> p.getFileName().toString().startsWith(CountingJob.COUNT))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static Path copyOf(Path snapshot, Path into) throws IOException {
        Path copy = into.resolve("copy-" + snapshot.getFileName());
        Files.createDirectories(copy);
        try (Stream<Path> files = Files.list(snapshot)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Files.copy(file, copy.resolve(file.getFileName()));
            }
        }
        return copy;
    }

    /**
     * Keeps the records it has seen in operator list state (round-robin redistributed) and in union
     * list state.
     */
    private static final class Remember extends ProcessFunction<Long, Long> {
        static final StateDescriptor<Long> SEEN = StateDescriptor.list("seen", Long.class);
        static final StateDescriptor<Long> ALL = StateDescriptor.list("all", Long.class);
        private ListState<Long> seen;
        private ListState<Long> all;

        @Override
        public void open(OperatorRuntimeContext context) {
            seen = context.operatorListState(SEEN);
            all = context.unionListState(ALL);
        }

        @Override
        public void processElement(Long value, Collector<Long> out) {
            seen.add(value);
            all.add(value);
            out.collect((long) seen.get().size() * 1_000_000 + all.get().size());
        }
    }
}
