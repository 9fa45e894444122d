package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.testing.CountingJob;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots signed with a deployment key: an edit that every integrity check accepts (a state file
 * of another deployment's snapshot with the same job and id, its CRC-32 and the manifest's checksum
 * recomputed) is refused by the signature; without a key nothing changes.
 */
class SnapshotSigningTest {
    private static final SnapshotSigning KEY =
            SnapshotSigning.withKey(bytes("a deployment key of 32 bytes....."));
    private static final SnapshotSigning OTHER_KEY =
            SnapshotSigning.withKey(bytes("another deployment key, 32 bytes"));
    private static final int KEYS = 40;
    private static final JobGraph GRAPH = graph(2_000);

    @TempDir static Path storage;

    private static Path signed;
    private static Path signedElsewhere;
    private static Path unsigned;

    @BeforeAll
    static void takeSavepointsOfTwoSignedDeploymentsAndAnUnsignedOne() throws Exception {
        signed = finalSavepoint(GRAPH, storage.resolve("signed"), KEY);
        signedElsewhere = finalSavepoint(graph(3_000), storage.resolve("elsewhere"), KEY);
        unsigned = finalSavepoint(GRAPH, storage.resolve("unsigned"), SnapshotSigning.NONE);
    }

    private static JobGraph graph(long records) {
        return CountingJob.graph(records, KEYS, Map.of(CountingJob.COUNT, 2));
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    private static Path finalSavepoint(JobGraph graph, Path dir, SnapshotSigning signing)
            throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(
                                CheckpointConfig.savepointsOnly(dir).withSigning(signing));
        try (RunningJob job = RunningJob.start(graph, config)) {
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(20));
            return job.stopWithSavepoint(Duration.ofSeconds(20));
        }
    }

    @Test
    void aSignedSnapshotRestoresWithItsKeyAndWithoutAKey() throws Exception {
        assertThat(SnapshotFiles.manifest(signed).get("signature").asText()).hasSize(64);
        assertThat(SnapshotFiles.manifest(unsigned).has("signature")).isFalse();
        assertThat(SnapshotReader.read(signed, GRAPH, KEY).checkpointId())
                .isEqualTo(SnapshotReader.read(signed, GRAPH).checkpointId());
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                signed, GRAPH, CountingJob.COUNT, CountingJob.COUNT_STATE))
                .isEqualTo(CountingJob.expected(2_000, KEYS));
    }

    @Test
    void aStateFileOfAnotherDeploymentWithRecomputedChecksumsIsRefusedOnlyBySignature(
            @TempDir Path dir) throws Exception {
        Path target = SnapshotFiles.copyTree(signed, dir, "target");
        int instance = 1;
        byte[] foreign =
                Files.readAllBytes(
                        SnapshotFiles.stateFile(
                                signedElsewhere,
                                CountingJob.COUNT,
                                entryOf(signedElsewhere, instance)));
        SnapshotFiles.rewriteStateFile(
                target, CountingJob.COUNT, entryOf(target, instance), foreign);
        assertThat(SnapshotReader.metadata(target).checkpointId())
                .as("the same job and snapshot id, so the file's identity matches")
                .isEqualTo(SnapshotReader.metadata(signedElsewhere).checkpointId());

        // Without a key every check passes and the counts are silently wrong.
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                target, GRAPH, CountingJob.COUNT, CountingJob.COUNT_STATE))
                .isNotEqualTo(CountingJob.expected(2_000, KEYS));
        assertThatThrownBy(() -> SnapshotReader.read(target, GRAPH, KEY))
                .isInstanceOf(SnapshotException.class)
                .hasMessage(
                        "snapshot "
                                + target
                                + " fails its signature: it was signed with another key, or its"
                                + " manifest or a state file was changed after it was written;"
                                + " restore a snapshot written with this runner's key");
    }

    @Test
    void aStateFileEditedInPlaceWithItsCrcRecomputedIsRefused(@TempDir Path dir) throws Exception {
        Path target = SnapshotFiles.copyTree(signed, dir, "target");
        byte[] content = Files.readAllBytes(SnapshotFiles.stateFile(target, CountingJob.COUNT, 0));
        content[content.length - 1] ^= 1;
        SnapshotFiles.rewriteStateFile(target, CountingJob.COUNT, 0, content);

        assertThatThrownBy(() -> SnapshotReader.read(target, GRAPH, KEY))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("fails its signature");
    }

    @Test
    void aManifestEditResealedWithoutTheKeyIsRefused(@TempDir Path dir) throws Exception {
        Path target = SnapshotFiles.copyTree(signed, dir, "target");
        SnapshotFiles.editManifest(
                target, true, m -> m.put("createdAtEpochMillis", Long.MAX_VALUE / 2));

        assertThat(SnapshotReader.read(target, GRAPH).path()).isEqualTo(target);
        assertThatThrownBy(() -> SnapshotReader.read(target, GRAPH, KEY))
                .hasMessageContaining("fails its signature");
    }

    @Test
    void aSnapshotSignedWithAnotherKeyIsRefused() {
        assertThatThrownBy(() -> SnapshotReader.read(signed, GRAPH, OTHER_KEY))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("fails its signature: it was signed with another key");
    }

    @Test
    void anUnsignedSnapshotIsRefusedWithAKeyInOneLine() {
        assertThatThrownBy(() -> SnapshotReader.read(unsigned, GRAPH, KEY))
                .isInstanceOf(SnapshotException.class)
                .hasMessage(
                        "snapshot "
                                + unsigned
                                + " is not signed, and this runner restores only snapshots signed"
                                + " with its key (--snapshot-key-file or FLOWSCALE_SNAPSHOT_KEY);"
                                + " restore a snapshot written with this key, or run without a key");
    }

    @Test
    void aRunnerWithAKeyOnStorageOfUnsignedSnapshotsRefusesToStartNamingEach(@TempDir Path dir)
            throws Exception {
        Path root = SnapshotFiles.copyTree(unsigned.getParent().getParent(), dir, "storage");
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(CheckpointConfig.savepointsOnly(root).withSigning(KEY));
        List<String> log = new ArrayList<>();

        assertThatThrownBy(() -> RunningJob.recover(GRAPH, config, null, log::add))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("none restores for job 'counting'")
                .hasMessageContaining("--start-fresh");
        assertThat(log).singleElement().asString().contains("is not signed");
    }

    /** The index of instance {@code instance}'s entry among the count operator's entries. */
    private static int entryOf(Path snapshot, int instance) throws Exception {
        ArrayNode entries =
                SnapshotFiles.instances(SnapshotFiles.manifest(snapshot), CountingJob.COUNT);
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).get("instance").asInt() == instance) {
                return i;
            }
        }
        throw new AssertionError("no entry for instance " + instance + " in " + snapshot);
    }
}
