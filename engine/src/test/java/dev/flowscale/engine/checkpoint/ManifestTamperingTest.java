package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.testing.CountingJob;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every manifest edit of issue 14 that keeps the manifest valid JSON is refused with a message
 * naming what is wrong: first by the manifest's own checksum, and, when the editor recomputes that
 * checksum, by the structural checks behind it.
 */
class ManifestTamperingTest {
    private static final JobGraph GRAPH =
            CountingJob.graph(3_000, 50, Map.of(CountingJob.MAP, 2, CountingJob.COUNT, 3));

    @TempDir static Path storage;
    private static Path good;

    @BeforeAll
    static void takeAGoodSavepoint() throws Exception {
        good = SnapshotFiles.finalSavepoint(GRAPH, storage);
    }

    @Test
    void theUntouchedSavepointRestoresWithEveryCountExact() {
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                good, GRAPH, CountingJob.COUNT, CountingJob.COUNT_STATE))
                .isEqualTo(CountingJob.expected(3_000, 50));
    }

    @Test
    void anyEditWithoutANewChecksumFailsTheManifestsOwnChecksum(@TempDir Path dir)
            throws IOException {
        Path copy =
                tampered(dir, false, m -> SnapshotFiles.instances(m, CountingJob.COUNT).remove(1));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining(copy.toString())
                .hasMessageContaining("fails its own checksum");
    }

    @Test
    void aDroppedInstanceEntryIsRefused(@TempDir Path dir) throws IOException {
        Path copy =
                tampered(dir, true, m -> SnapshotFiles.instances(m, CountingJob.COUNT).remove(1));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining(
                        "2 instance entries for operator 'count', which ran at parallelism 3");
    }

    @Test
    void aDroppedSourceEntryIsRefused(@TempDir Path dir) throws IOException {
        Path copy = tampered(dir, true, m -> m.withArray("operators").remove(0));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("has no entry for operators [" + CountingJob.SOURCE + "]");
    }

    @Test
    void aDroppedSourceInstanceIsRefused(@TempDir Path dir) throws IOException {
        Path copy =
                tampered(dir, true, m -> SnapshotFiles.instances(m, CountingJob.SOURCE).remove(0));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining(
                        "0 instance entries for operator '" + CountingJob.SOURCE + "'");
    }

    @Test
    void anEmptyOperatorListIsRefused(@TempDir Path dir) throws IOException {
        Path copy = tampered(dir, true, m -> m.withArray("operators").removeAll());
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("has no entry for operators [numbers, tag, count, sink]");
    }

    @Test
    void aFilePathIntoAnotherSnapshotIsRefused(@TempDir Path dir) throws IOException {
        Path copy =
                tampered(
                        dir,
                        true,
                        m ->
                                ((ObjectNode) SnapshotFiles.instances(m, CountingJob.COUNT).get(0))
                                        .put("file", "../savepoint-1-0/count-0.state"));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("names file '../savepoint-1-0/count-0.state'")
                .hasMessageContaining("outside this snapshot's folder");
    }

    @Test
    void aNullOperatorListNamesTheField(@TempDir Path dir) throws IOException {
        Path copy = tampered(dir, false, m -> m.putNull("operators"));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("manifest field 'operators' is null");
    }

    @Test
    void aMissingInstanceFieldNamesItsPath(@TempDir Path dir) throws IOException {
        Path copy =
                tampered(
                        dir,
                        false,
                        m ->
                                ((ObjectNode) SnapshotFiles.instances(m, CountingJob.COUNT).get(1))
                                        .remove("crc32"));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining(
                        "manifest field 'operators[2].instances[1].crc32' is missing");
    }

    @Test
    void keyGroupsHeldTwiceAreRefused(@TempDir Path dir) throws IOException {
        Path copy =
                tampered(
                        dir,
                        true,
                        m -> {
                            // The manifest lists instances in the order they finished their
                            // snapshot: find one that does not start at 0.
                            for (var node : SnapshotFiles.instances(m, CountingJob.COUNT)) {
                                ObjectNode instance = (ObjectNode) node;
                                if (instance.get("keyGroupStart").asInt() > 0) {
                                    instance.put(
                                            "keyGroupStart",
                                            instance.get("keyGroupStart").asInt() - 1);
                                    return;
                                }
                            }
                        });
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("of keyed operator 'count' held by 2 instances");
    }

    @Test
    void aSplitCountThatDisagreesWithTheFileIsRefused(@TempDir Path dir) throws IOException {
        Path copy =
                tampered(
                        dir,
                        true,
                        m ->
                                ((ObjectNode) SnapshotFiles.instances(m, CountingJob.SOURCE).get(0))
                                        .put("splits", 2));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("holds 1 source splits but the manifest says 2");
    }

    @Test
    void aRunnerRefusesATamperedSnapshotBeforeAnyTaskStarts(@TempDir Path dir) throws IOException {
        Path copy = tampered(dir, true, m -> m.withArray("operators").removeAll());
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir.resolve("s")));
        assertThatThrownBy(() -> RunningJob.start(GRAPH, config, copy))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("has no entry for operators");
        try (RunningJob job = RunningJob.start(GRAPH, config)) {
            assertThat(job.status())
                    .as("the refused start released the storage")
                    .isEqualTo(RunningJob.Status.RUNNING);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theManifestKeepsTheKeyGroupCountUnderItsFormatTwoNameSoOlderSavepointsStillRestore()
            throws IOException {
        ObjectNode manifest = SnapshotFiles.manifest(good);
        assertThat(manifest.get("formatVersion").asInt())
                .isEqualTo(SnapshotMetadata.FORMAT_VERSION);
        assertThat(manifest.get("maxParallelism").asInt()).isEqualTo(GRAPH.keyGroups());
        assertThat(manifest.has("keyGroups"))
                .as("a renamed field would break every older savepoint")
                .isFalse();
        assertThat(ManifestFile.read(good).keyGroups()).isEqualTo(GRAPH.keyGroups());
    }

    @Test
    void aSnapshotOfAnotherKeyGroupCountIsRefusedNamingBothCounts(@TempDir Path dir)
            throws IOException {
        Path copy = tampered(dir, true, m -> m.put("maxParallelism", 64));
        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining(
                        "was taken with 64 key groups but job '" + GRAPH.jobName() + "' has 128")
                .hasMessageContaining("set keyGroups(64)");
    }

    private static Path tampered(Path dir, boolean reseal, Consumer<ObjectNode> edit)
            throws IOException {
        Path copy = SnapshotFiles.copyTree(good, dir, good.getFileName().toString());
        SnapshotFiles.editManifest(copy, reseal, edit);
        return copy;
    }
}
