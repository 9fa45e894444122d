package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.checkpoint.RestoredState.InstanceRestore;
import dev.flowscale.engine.checkpoint.RestoredState.OperatorList;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.StateCodec;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;

/**
 * Reads a checkpoint or savepoint for a job graph, validating everything before any task
 * starts: the manifest exists and parses, its format version is known, its operators belong
 * to the job, and every file has its recorded length and CRC-32. Each file is read once, and
 * its key groups go straight to the new instance that owns them.
 */
public final class SnapshotReader {
    private final Path dir;
    private final JobGraph graph;

    private SnapshotReader(Path dir, JobGraph graph) {
        this.dir = dir;
        this.graph = graph;
    }

    public static RestoredState read(Path dir, JobGraph graph) {
        return new SnapshotReader(dir, graph).read();
    }

    /** Reads and checks only the manifest. */
    public static SnapshotMetadata metadata(Path dir) {
        Path file = dir.resolve(SnapshotMetadata.FILE_NAME);
        if (!Files.isRegularFile(file)) {
            throw new SnapshotException("no snapshot at " + dir + ": " + SnapshotMetadata.FILE_NAME + " is missing "
                    + "(a wrong path, or a snapshot that never completed); pass the directory of a completed savepoint");
        }
        JsonNode json;
        try {
            json = StateCodec.json().readTree(file.toFile());
        } catch (IOException e) {
            throw new SnapshotException("snapshot " + dir + " is corrupt: " + SnapshotMetadata.FILE_NAME
                    + " is not valid JSON (" + e.getMessage() + ")", e);
        }
        int version = json.path("formatVersion").asInt(-1);
        if (version != SnapshotMetadata.FORMAT_VERSION) {
            throw new SnapshotException("snapshot " + dir + " has format version " + version + "; this flowscale "
                    + "reads version " + SnapshotMetadata.FORMAT_VERSION + " only");
        }
        try {
            return StateCodec.json().treeToValue(json, SnapshotMetadata.class);
        } catch (IOException e) {
            throw new SnapshotException("snapshot " + dir + " is corrupt: " + SnapshotMetadata.FILE_NAME
                    + " does not match the format (" + e.getMessage() + ")", e);
        }
    }

    private RestoredState read() {
        SnapshotMetadata metadata = metadata(dir);
        checkCompatible(metadata);
        RestoredState restored = new RestoredState(dir, metadata.checkpointId());
        for (SnapshotMetadata.OperatorEntry entry : metadata.operators()) {
            readOperator(entry, restored);
        }
        return restored;
    }

    private void checkCompatible(SnapshotMetadata metadata) {
        if (metadata.maxParallelism() != graph.maxParallelism()) {
            throw new SnapshotException("snapshot " + dir + " was taken with max parallelism " + metadata.maxParallelism()
                    + " but job '" + graph.jobName() + "' has " + graph.maxParallelism()
                    + "; the number of key groups cannot change: set maxParallelism(" + metadata.maxParallelism() + ")");
        }
        List<String> unknown = metadata.operators().stream().map(SnapshotMetadata.OperatorEntry::id)
                .filter(id -> graph.operator(id) == null).toList();
        if (!unknown.isEmpty()) {
            throw new SnapshotException("snapshot " + dir + " has state for operators " + unknown + " that job '"
                    + graph.jobName() + "' does not have (its operators are " + graph.parallelism().keySet()
                    + "); the operator ids do not match: keep each operator's uid across versions");
        }
    }

    private void readOperator(SnapshotMetadata.OperatorEntry entry, RestoredState restored) {
        OperatorNode node = graph.operator(entry.id());
        InstanceRestore[] targets = restored.create(node.id(), node.parallelism());
        Map<String, OperatorStateStore.Mode> modes = new LinkedHashMap<>();
        Map<String, List<byte[]>> lists = new LinkedHashMap<>();
        List<byte[]> splits = new ArrayList<>();
        for (TaskStateHandle handle : entry.instances()) {
            readFile(handle, targets, modes, lists, splits);
        }
        distributeLists(targets, modes, lists);
        if (node.kind().isSource() && !splits.isEmpty()) {
            distributeSplits(node, targets, splits);
        }
    }

    private void readFile(TaskStateHandle handle, InstanceRestore[] targets, Map<String, OperatorStateStore.Mode> modes,
                          Map<String, List<byte[]>> lists, List<byte[]> splits) {
        Path file = dir.resolve(handle.file());
        try {
            checkLength(file, handle);
            CRC32 crc = new CRC32();
            try (InputStream raw = Files.newInputStream(file);
                 DataInputStream in = new DataInputStream(new BufferedInputStream(new CheckedInputStream(raw, crc), 1 << 16))) {
                checkHeader(file, in);
                readKeyGroups(in, targets);
                readLists(in, modes, lists);
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    splits.add(bytes(in));
                }
                if (in.read() != -1) {
                    throw corrupt(file, "has bytes after its last section");
                }
            }
            if (crc.getValue() != handle.crc32()) {
                throw corrupt(file, "fails its checksum (CRC-32 " + crc.getValue() + ", manifest says " + handle.crc32() + ")");
            }
        } catch (EOFException e) {
            throw checksumMismatch(file, handle) ? corrupt(file, "fails its checksum") : corrupt(file, "ends early");
        } catch (IOException e) {
            if (checksumMismatch(file, handle)) {
                throw corrupt(file, "fails its checksum");
            }
            throw new SnapshotException("snapshot " + dir + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean checksumMismatch(Path file, TaskStateHandle handle) {
        CRC32 crc = new CRC32();
        try (InputStream in = new CheckedInputStream(Files.newInputStream(file), crc)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException e) {
            return true;
        }
        return crc.getValue() != handle.crc32();
    }

    private void checkLength(Path file, TaskStateHandle handle) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new SnapshotException("snapshot " + dir + " is incomplete: " + file + " is missing");
        }
        long size = Files.size(file);
        if (size != handle.bytes()) {
            throw corrupt(file, size < handle.bytes() ? "is truncated (" + size + " of " + handle.bytes() + " bytes)"
                    : "is longer than recorded (" + size + " vs " + handle.bytes() + " bytes)");
        }
    }

    private static void checkHeader(Path file, DataInputStream in) throws IOException {
        if (in.readInt() != InstanceStateFile.MAGIC) {
            throw new SnapshotException("snapshot file " + file + " is not a flowscale state file (bad magic number)");
        }
        int version = in.readInt();
        if (version != InstanceStateFile.VERSION) {
            throw new SnapshotException("snapshot file " + file + " has state format version " + version
                    + "; this flowscale reads version " + InstanceStateFile.VERSION);
        }
    }

    private void readKeyGroups(DataInputStream in, InstanceRestore[] targets) throws IOException {
        int groups = in.readInt();
        for (int i = 0; i < groups; i++) {
            int keyGroup = in.readInt();
            if (keyGroup < 0 || keyGroup >= graph.maxParallelism()) {
                throw new IOException("key group " + keyGroup + " is out of range");
            }
            byte[] block = bytes(in);
            targets[KeyGroups.operatorIndexFor(keyGroup, graph.maxParallelism(), targets.length)]
                    .keyGroupBlocks.put(keyGroup, block);
        }
    }

    private static void readLists(DataInputStream in, Map<String, OperatorStateStore.Mode> modes,
                                  Map<String, List<byte[]>> lists) throws IOException {
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            modes.put(name, OperatorStateStore.Mode.values()[in.readByte()]);
            int elements = in.readInt();
            List<byte[]> list = lists.computeIfAbsent(name, k -> new ArrayList<>());
            for (int e = 0; e < elements; e++) {
                list.add(bytes(in));
            }
        }
    }

    private static void distributeLists(InstanceRestore[] targets, Map<String, OperatorStateStore.Mode> modes,
                                        Map<String, List<byte[]>> lists) {
        lists.forEach((name, elements) -> {
            OperatorStateStore.Mode mode = modes.get(name);
            for (int t = 0; t < targets.length; t++) {
                List<byte[]> share = new ArrayList<>();
                for (int e = 0; e < elements.size(); e++) {
                    if (mode == OperatorStateStore.Mode.UNION || e % targets.length == t) {
                        share.add(elements.get(e));
                    }
                }
                targets[t].operatorLists.put(name, new OperatorList(mode, share));
            }
        });
    }

    @SuppressWarnings("unchecked")
    private void distributeSplits(OperatorNode node, InstanceRestore[] targets, List<byte[]> encoded) {
        SourceFunction<Object> source = (SourceFunction<Object>) node.function();
        List<Object> splits = new ArrayList<>();
        try {
            for (byte[] json : encoded) {
                splits.add(StateCodec.json().readValue(json, source.splitType()));
            }
        } catch (IOException e) {
            throw new SnapshotException("snapshot " + dir + ": the splits of source '" + node.id() + "' do not match its "
                    + "split type " + source.splitType().getSimpleName() + " (" + e.getMessage() + ")", e);
        }
        List<List<Object>> assigned = source.assignSplits(splits, targets.length);
        for (int i = 0; i < targets.length; i++) {
            targets[i].splits = assigned.get(i);
        }
    }

    private static byte[] bytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > (1 << 30)) {
            throw new IOException("a length of " + length + " bytes is impossible");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    private SnapshotException corrupt(Path file, String problem) {
        return new SnapshotException("snapshot " + dir + " is corrupt: " + file.getFileName() + " " + problem
                + "; restore an earlier snapshot");
    }
}
