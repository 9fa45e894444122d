package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.state.StateCodec;
import dev.flowscale.engine.testing.CountingJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/** Copies and edits snapshots on disk the way a hostile tester or a damaged disk would. */
final class SnapshotFiles {
    private SnapshotFiles() {}

    /** Runs the counting job until it has processed all its input and stops it with a savepoint. */
    static Path finalSavepoint(JobGraph graph, Path storage) throws Exception {
        return finalSavepoint(graph, storage, StateBackendConfig.heap());
    }

    /** {@link #finalSavepoint(JobGraph, Path)} with keyed state in {@code backend}. */
    static Path finalSavepoint(JobGraph graph, Path storage, StateBackendConfig backend)
            throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(backend)
                        .withCheckpointing(CheckpointConfig.savepointsOnly(storage));
        try (RunningJob job = RunningJob.start(graph, config)) {
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(20));
            return job.stopWithSavepoint(Duration.ofSeconds(20));
        }
    }

    /**
     * Copies a directory tree (a snapshot or a whole storage root) into {@code into}/{@code name}.
     */
    static Path copyTree(Path from, Path into, String name) throws IOException {
        Path to = into.resolve(name);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }

    static ObjectNode manifest(Path snapshot) throws IOException {
        return (ObjectNode)
                StateCodec.json().readTree(snapshot.resolve(SnapshotMetadata.FILE_NAME).toFile());
    }

    /**
     * Edits the manifest; with {@code reseal} its checksum is recomputed, as an editor who knows
     * the format would, so that the checks behind the checksum are what refuses the edit.
     */
    static void editManifest(Path snapshot, boolean reseal, Consumer<ObjectNode> edit)
            throws IOException {
        ObjectNode manifest = manifest(snapshot);
        edit.accept(manifest);
        if (reseal) {
            manifest.put(ManifestFile.CHECKSUM, ManifestFile.checksum(manifest));
        }
        Files.write(
                snapshot.resolve(SnapshotMetadata.FILE_NAME),
                StateCodec.json().writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest));
    }

    static ObjectNode operator(ObjectNode manifest, String id) {
        for (var node : manifest.withArray("operators")) {
            if (node.get("id").asText().equals(id)) {
                return (ObjectNode) node;
            }
        }
        throw new AssertionError("no operator " + id + " in " + manifest);
    }

    static ArrayNode instances(ObjectNode manifest, String id) {
        return (ArrayNode) operator(manifest, id).get("instances");
    }

    /**
     * Rewrites one instance's file and records its new length and CRC-32 in the (resealed)
     * manifest.
     */
    static void rewriteStateFile(Path snapshot, String operator, int instance, byte[] content)
            throws IOException {
        ObjectNode handle = (ObjectNode) instances(manifest(snapshot), operator).get(instance);
        Files.write(snapshot.resolve(handle.get("file").asText()), content);
        CRC32 crc = new CRC32();
        crc.update(content);
        editManifest(
                snapshot,
                true,
                m -> {
                    ObjectNode h = (ObjectNode) instances(m, operator).get(instance);
                    h.put("bytes", content.length);
                    h.put("crc32", crc.getValue());
                });
    }

    /**
     * Where the body of state file {@code content} starts: after the magic number, the version and
     * the identity (the job's name as modified UTF-8 behind its 2-byte length, the snapshot id).
     */
    static int bodyOffset(byte[] content) {
        return 8 + 2 + java.nio.ByteBuffer.wrap(content).getShort(8) + 8;
    }

    static Path stateFile(Path snapshot, String operator, int instance) throws IOException {
        ObjectNode handle = (ObjectNode) instances(manifest(snapshot), operator).get(instance);
        return snapshot.resolve(handle.get("file").asText());
    }
}
