package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.checkpoint.RestoredState.InstanceRestore;
import dev.flowscale.engine.checkpoint.RestoredState.OperatorList;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.StateCodec;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Reads a checkpoint or savepoint for a job graph, validating everything before any task starts:
 * the manifest verifies itself ({@link ManifestFile}), describes the whole job ({@link
 * ManifestVerifier}), and every file has its recorded length and CRC-32 (checked before it is
 * parsed) and holds exactly the key groups and splits the manifest gives it. Every length field is
 * bounded by the file before anything is allocated. Each file's key groups go straight to the new
 * instance that owns them.
 */
public final class SnapshotReader {
    private final Path dir;
    private final JobGraph graph;
    private final SnapshotMetadata metadata;

    private SnapshotReader(Path dir, JobGraph graph, SnapshotMetadata metadata) {
        this.dir = dir;
        this.graph = graph;
        this.metadata = metadata;
    }

    public static RestoredState read(Path dir, JobGraph graph) {
        return read(dir, graph, SnapshotSigning.NONE);
    }

    /** As {@link #read(Path, JobGraph)}; with a key, only a snapshot signed with it is read. */
    public static RestoredState read(Path dir, JobGraph graph, SnapshotSigning signing) {
        return new SnapshotReader(dir, graph, ManifestFile.read(dir, signing)).read();
    }

    /** Reads and checks only the manifest (see {@link ManifestFile#read}). */
    public static SnapshotMetadata metadata(Path dir) {
        return ManifestFile.read(dir);
    }

    private RestoredState read() {
        new ManifestVerifier(dir, graph).verify(metadata);
        RestoredState restored = new RestoredState(dir, metadata.checkpointId());
        for (SnapshotMetadata.OperatorEntry entry : metadata.operators()) {
            readOperator(entry, restored);
        }
        restored.countKeyGroups();
        return restored;
    }

    private void readOperator(SnapshotMetadata.OperatorEntry entry, RestoredState restored) {
        OperatorNode node = graph.operator(entry.id());
        InstanceRestore[] targets = restored.create(node.id(), node.parallelism());
        // Files are read in parallel (each checks and decodes its own key groups); lists and
        // splits are then merged in instance order, as one reader would.
        List<FileContents> files =
                entry.instances().parallelStream().map(h -> readFile(h, targets)).toList();
        Map<String, OperatorStateStore.Mode> modes = new LinkedHashMap<>();
        Map<String, List<byte[]>> lists = new LinkedHashMap<>();
        List<byte[]> splits = new ArrayList<>();
        for (FileContents file : files) {
            modes.putAll(file.modes);
            file.lists.forEach(
                    (name, l) -> lists.computeIfAbsent(name, k -> new ArrayList<>()).addAll(l));
            splits.addAll(file.splits);
        }
        distributeLists(targets, modes, lists);
        if (node.kind().isSource() && !splits.isEmpty()) {
            distributeSplits(dir, node, targets, splits);
        }
    }

    /** The operator lists and splits of one file, in file order. */
    private static final class FileContents {
        final Map<String, OperatorStateStore.Mode> modes = new LinkedHashMap<>();
        final Map<String, List<byte[]>> lists = new LinkedHashMap<>();
        final List<byte[]> splits = new ArrayList<>();
    }

    /**
     * Parses the file in one pass that also computes its CRC-32; every length is bounded by the
     * file, and a file that fails its checksum is reported as such even where it also fails to
     * parse.
     */
    private FileContents readFile(TaskStateHandle handle, InstanceRestore[] targets) {
        Path file = dir.resolve(handle.file());
        FileContents contents = new FileContents();
        CRC32 crc = new CRC32();
        try {
            checkLength(file, handle);
            try (StateFileInput in = new StateFileInput(file, handle.bytes(), crc)) {
                try {
                    parse(file, in, handle, targets, contents);
                } catch (IOException | SnapshotException e) {
                    in.drain();
                    checkCrc(file, handle, crc);
                    throw e;
                }
            }
            checkCrc(file, handle, crc);
            if (handle.rocksDb() != null) {
                RocksDbSnapshotReader.read(dir, handle, graph.keyGroups(), targets);
            }
            return contents;
        } catch (EOFException e) {
            throw corrupt(file, "ends early");
        } catch (StateFileInput.DamagedLengthException e) {
            throw corrupt(file, "is damaged: " + e.getMessage());
        } catch (IOException e) {
            throw new SnapshotException(
                    "snapshot " + dir + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private void parse(
            Path file,
            StateFileInput in,
            TaskStateHandle handle,
            InstanceRestore[] targets,
            FileContents contents)
            throws IOException {
        checkHeader(file, in.data());
        readKeyGroups(in, handle, targets);
        readLists(in, contents.modes, contents.lists);
        readSplits(in, handle, contents.splits);
        if (in.data().read() != -1) {
            throw corrupt(file, "has bytes after its last section");
        }
    }

    private void checkCrc(Path file, TaskStateHandle handle, CRC32 crc) {
        if (crc.getValue() != handle.crc32()) {
            throw corrupt(
                    file,
                    "fails its checksum (CRC-32 "
                            + crc.getValue()
                            + ", manifest says "
                            + handle.crc32()
                            + ")");
        }
    }

    private void checkLength(Path file, TaskStateHandle handle) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new SnapshotException(
                    "snapshot " + dir + " is incomplete: " + file + " is missing");
        }
        long size = Files.size(file);
        if (size != handle.bytes()) {
            throw corrupt(
                    file,
                    size < handle.bytes()
                            ? "is truncated (" + size + " of " + handle.bytes() + " bytes)"
                            : "is longer than recorded ("
                                    + size
                                    + " vs "
                                    + handle.bytes()
                                    + " bytes)");
        }
    }

    /**
     * The magic number, then the file's version and identity: a manifest of format 3 names only
     * files of its own snapshot (version 2, with their identity); one of format 2, written before
     * files carried it, names version 1 files.
     */
    private void checkHeader(Path file, DataInputStream in) throws IOException {
        if (in.readInt() != InstanceStateFile.MAGIC) {
            throw new SnapshotException(
                    "snapshot file " + file + " is not a flowscale state file (bad magic number)");
        }
        int version = in.readInt();
        int expected =
                metadata.filesCarryIdentity()
                        ? InstanceStateFile.VERSION
                        : InstanceStateFile.VERSION_WITHOUT_IDENTITY;
        if (version != expected) {
            throw new SnapshotException(
                    "snapshot file "
                            + file
                            + " has state format version "
                            + version
                            + " where its manifest (format "
                            + metadata.formatVersion()
                            + ") needs version "
                            + expected);
        }
        if (metadata.filesCarryIdentity()) {
            checkIdentity(file, SnapshotIdentity.read(in), SnapshotIdentity.of(metadata));
        }
    }

    private void checkIdentity(Path file, SnapshotIdentity found, SnapshotIdentity expected) {
        if (!found.equals(expected)) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " holds a file of another snapshot: "
                            + file.getFileName()
                            + " belongs to "
                            + found.describe()
                            + ", this manifest is "
                            + expected.describe()
                            + "; a state file cannot be moved between snapshots. Restore an"
                            + " earlier snapshot");
        }
    }

    /** Every key group the manifest gives this instance, each once, and no other. */
    private void readKeyGroups(StateFileInput in, TaskStateHandle handle, InstanceRestore[] targets)
            throws IOException {
        int expected = handle.keyGroupsInFile();
        int groups = in.count("key groups", 8);
        if (groups != expected) {
            throw new StateFileInput.DamagedLengthException(
                    "it holds "
                            + groups
                            + " key groups but the manifest gives "
                            + "it "
                            + expected);
        }
        for (int i = 0; i < groups; i++) {
            int keyGroup = in.data().readInt();
            if (keyGroup != handle.keyGroupStart() + i) {
                throw new StateFileInput.DamagedLengthException(
                        "it holds key group "
                                + keyGroup
                                + " where the manifest "
                                + "says "
                                + (handle.keyGroupStart() + i));
            }
            InstanceRestore owner = owner(targets, keyGroup, graph.keyGroups());
            byte[] block = in.bytes("key group " + keyGroup);
            owner.keyGroups.put(keyGroup, KeyGroupBlocks.decode(block, keyGroup));
        }
    }

    static InstanceRestore owner(InstanceRestore[] targets, int keyGroup, int keyGroups) {
        return targets[KeyGroups.operatorIndexFor(keyGroup, keyGroups, targets.length)];
    }

    private static void readLists(
            StateFileInput in,
            Map<String, OperatorStateStore.Mode> modes,
            Map<String, List<byte[]>> lists)
            throws IOException {
        int n = in.count("operator lists", 7);
        for (int i = 0; i < n; i++) {
            String name = in.data().readUTF();
            int mode = in.data().readByte();
            if (mode < 0 || mode >= OperatorStateStore.Mode.values().length) {
                throw new StateFileInput.DamagedLengthException(
                        "list '" + name + "' has an unknown mode " + mode);
            }
            modes.put(name, OperatorStateStore.Mode.values()[mode]);
            int elements = in.count("elements of list '" + name + "'", 4);
            List<byte[]> list = lists.computeIfAbsent(name, k -> new ArrayList<>());
            for (int e = 0; e < elements; e++) {
                list.add(in.bytes("an element of list '" + name + "'"));
            }
        }
    }

    private static void readSplits(StateFileInput in, TaskStateHandle handle, List<byte[]> splits)
            throws IOException {
        int n = in.count("source splits", 4);
        if (n != handle.splits()) {
            throw new StateFileInput.DamagedLengthException(
                    "it holds " + n + " source splits but the manifest says " + handle.splits());
        }
        for (int i = 0; i < n; i++) {
            splits.add(in.bytes("source split " + i));
        }
    }

    static void distributeLists(
            InstanceRestore[] targets,
            Map<String, OperatorStateStore.Mode> modes,
            Map<String, List<byte[]>> lists) {
        lists.forEach(
                (name, elements) -> {
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
    static void distributeSplits(
            Path dir, OperatorNode node, InstanceRestore[] targets, List<byte[]> encoded) {
        SourceFunction<Object> source = (SourceFunction<Object>) node.function();
        List<Object> splits = new ArrayList<>();
        try {
            for (byte[] json : encoded) {
                splits.add(StateCodec.json().readValue(json, source.splitType()));
            }
        } catch (IOException e) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + ": the splits of source '"
                            + node.id()
                            + "' do not match its "
                            + "split type "
                            + source.splitType().getSimpleName()
                            + " ("
                            + e.getMessage()
                            + ")",
                    e);
        }
        List<List<Object>> assigned = source.assignSplits(splits, targets.length);
        for (int i = 0; i < targets.length; i++) {
            targets[i].splits = assigned.get(i);
        }
    }

    private SnapshotException corrupt(Path file, String problem) {
        return new SnapshotException(
                "snapshot "
                        + dir
                        + " is corrupt: "
                        + file.getFileName()
                        + " "
                        + problem
                        + "; restore an earlier snapshot");
    }
}
