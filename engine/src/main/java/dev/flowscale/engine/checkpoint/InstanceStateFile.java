package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStateBackend.RawTable;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateCodec;
import dev.flowscale.engine.state.StateEncoding;
import dev.flowscale.engine.state.StateTable;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * Writes one task's part of a snapshot. Layout (big-endian), format version 2:
 *
 * <pre>
 * int magic 0x464C5753 ("FLWS"), int version
 * string job, long snapshotId                    the snapshot the file belongs to (version 2)
 * int keyGroups; per key group: int keyGroup, int length, block
 *     block: int states; per state: string name, byte kind, int entries;
 *            per entry: tagged key, int length, encoded value
 * int operatorLists; per list: string name, byte mode, int elements; per element: int length, bytes
 * int sourceSplits; per split: int length, JSON bytes
 * </pre>
 *
 * The file is fsynced; its length and CRC-32 go into the snapshot's manifest.
 */
public final class InstanceStateFile {
    static final int MAGIC = 0x464C5753;
    static final int VERSION = 2;

    /** The version of files written by manifest format 2: no {@link SnapshotIdentity}. */
    static final int VERSION_WITHOUT_IDENTITY = 1;

    private InstanceStateFile() {}

    public static TaskStateHandle write(
            Path dir,
            SnapshotIdentity identity,
            String operatorId,
            int instance,
            KeyedStateBackend keyed,
            OperatorStateStore operatorState,
            List<?> splits)
            throws IOException {
        return write(
                dir,
                identity,
                operatorId,
                instance,
                keyed,
                encodeLists(operatorState),
                encodeSplits(splits),
                true);
    }

    /**
     * Writes a task's file from its keyed backend and its operator lists and splits already encoded
     * ({@link #encodeLists}, {@link #encodeSplits}); a hand-over rescale encodes those at the
     * barrier and writes the file later, and an incremental checkpoint writes it on its uploader
     * thread. The file is fsynced only if {@code sync}: otherwise the caller syncs it with a batch
     * of files.
     */
    static TaskStateHandle write(
            Path dir,
            SnapshotIdentity identity,
            String operatorId,
            int instance,
            KeyedStateBackend keyed,
            List<EncodedList> lists,
            List<byte[]> splits,
            boolean sync)
            throws IOException {
        String name = operatorId + "-" + instance + ".state";
        CRC32 crc = new CRC32();
        long bytes;
        try (FileOutputStream file = new FileOutputStream(dir.resolve(name).toFile());
                DataOutputStream out =
                        new DataOutputStream(
                                new BufferedOutputStream(
                                        new CheckedOutputStream(file, crc), 1 << 16))) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            identity.write(out);
            writeKeyed(out, keyed);
            writeOperatorLists(out, lists);
            writeSplits(out, splits);
            out.flush();
            if (sync) {
                file.getFD().sync();
            }
            bytes = file.getChannel().size();
        }
        KeyGroupRange range = keyed == null ? KeyGroupRange.EMPTY : keyed.keyGroupRange();
        return new TaskStateHandle(
                operatorId,
                instance,
                name,
                bytes,
                crc.getValue(),
                range.start(),
                range.endInclusive(),
                splits.size(),
                null);
    }

    /** One operator list as a snapshot holds it: its name, mode and encoded elements. */
    record EncodedList(String name, OperatorStateStore.Mode mode, List<byte[]> elements) {}

    /** The operator lists of {@code store} (null: none), each element encoded. */
    static List<EncodedList> encodeLists(OperatorStateStore store) {
        if (store == null) {
            return List.of();
        }
        List<EncodedList> lists = new ArrayList<>();
        store.lists()
                .forEach(
                        (name, entry) ->
                                lists.add(
                                        new EncodedList(
                                                name, entry.mode(), entry.encodedElements())));
        return lists;
    }

    /** Source splits (null: none) as JSON, one array per split. */
    static List<byte[]> encodeSplits(List<?> splits) throws IOException {
        if (splits == null) {
            return List.of();
        }
        List<byte[]> encoded = new ArrayList<>(splits.size());
        for (Object split : splits) {
            encoded.add(StateCodec.json().writeValueAsBytes(split));
        }
        return encoded;
    }

    private static void writeKeyed(DataOutputStream out, KeyedStateBackend keyed)
            throws IOException {
        if (keyed == null) {
            out.writeInt(0);
            return;
        }
        KeyGroupRange range = keyed.keyGroupRange();
        out.writeInt(range.size());
        ByteArrayOutputStream block = new ByteArrayOutputStream(1 << 12);
        for (int i = 0; i < range.size(); i++) {
            block.reset();
            writeBlock(new DataOutputStream(block), keyed, i);
            out.writeInt(range.start() + i);
            out.writeInt(block.size());
            block.writeTo(out);
        }
    }

    /**
     * One key group's block, as a snapshot writes it ({@link KeyGroupBlocks#restoreInto} reads it).
     *
     * @param groupIndex the key group's index in the backend's range (not its number)
     */
    public static byte[] keyGroupBlock(KeyedStateBackend keyed, int groupIndex) {
        ByteArrayOutputStream block = new ByteArrayOutputStream(1 << 10);
        try {
            writeBlock(new DataOutputStream(block), keyed, groupIndex);
        } catch (IOException e) {
            throw new SnapshotException(
                    "operator '"
                            + keyed.operator()
                            + "': cannot encode key group "
                            + (keyed.keyGroupRange().start() + groupIndex)
                            + ": "
                            + e.getMessage(),
                    e);
        }
        return block.toByteArray();
    }

    private static void writeBlock(DataOutputStream out, KeyedStateBackend keyed, int groupIndex)
            throws IOException {
        if (keyed.store() != null) {
            writeBlock(out, keyed.store(), keyed.keyGroupRange().start() + groupIndex);
            return;
        }
        Map<String, StateTable> tables = keyed.tables();
        Map<String, RawTable> raw = keyed.restoredTables();
        out.writeInt(tables.size() + raw.size());
        ByteArrayOutputStream value = new ByteArrayOutputStream(64);
        DataOutputStream valueOut = new DataOutputStream(value);
        for (StateTable table : tables.values()) {
            Map<Object, Object> group = table.group(groupIndex);
            header(
                    out,
                    table.descriptor().name(),
                    table.descriptor().kind().ordinal(),
                    group.size());
            for (Map.Entry<Object, Object> e : group.entrySet()) {
                StateCodec.write(out, e.getKey());
                value.reset();
                StateEncoding.encode(table.descriptor().kind(), e.getValue(), valueOut);
                out.writeInt(value.size());
                value.writeTo(out);
            }
        }
        for (Map.Entry<String, RawTable> t : raw.entrySet()) {
            HashMap<Object, Object> group = t.getValue().groups()[groupIndex];
            header(out, t.getKey(), t.getValue().kind().ordinal(), group.size());
            for (Map.Entry<Object, Object> e : group.entrySet()) {
                StateCodec.write(out, e.getKey());
                if (e.getValue() instanceof byte[] encoded) {
                    out.writeInt(encoded.length);
                    out.write(encoded);
                } else {
                    value.reset();
                    StateEncoding.encode(t.getValue().kind(), e.getValue(), valueOut);
                    out.writeInt(value.size());
                    value.writeTo(out);
                }
            }
        }
    }

    /** One key group's block of a RocksDB store, as a snapshot writes it. */
    static byte[] rocksDbBlock(RocksDbKeyedStore store, int keyGroup) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream(1 << 12);
        writeBlock(new DataOutputStream(block), store, keyGroup);
        return block.toByteArray();
    }

    /**
     * A key group's block from RocksDB: its keys and values are already encoded as a block holds
     * them, so they are copied, not decoded.
     */
    private static void writeBlock(DataOutputStream out, RocksDbKeyedStore store, int keyGroup)
            throws IOException {
        Map<String, StateDescriptor.Kind> states = store.states();
        out.writeInt(states.size());
        ByteArrayOutputStream entries = new ByteArrayOutputStream(1 << 12);
        DataOutputStream entriesOut = new DataOutputStream(entries);
        for (Map.Entry<String, StateDescriptor.Kind> state : states.entrySet()) {
            entries.reset();
            int count =
                    store.forEach(
                            state.getKey(),
                            keyGroup,
                            (key, value) -> {
                                entriesOut.write(key);
                                entriesOut.writeInt(value.length);
                                entriesOut.write(value);
                            });
            header(out, state.getKey(), state.getValue().ordinal(), count);
            entries.writeTo(out);
        }
    }

    private static void header(DataOutputStream out, String name, int kind, int entries)
            throws IOException {
        out.writeUTF(name);
        out.writeByte(kind);
        out.writeInt(entries);
    }

    private static void writeOperatorLists(DataOutputStream out, List<EncodedList> lists)
            throws IOException {
        out.writeInt(lists.size());
        for (EncodedList list : lists) {
            out.writeUTF(list.name());
            out.writeByte(list.mode().ordinal());
            out.writeInt(list.elements().size());
            writeArrays(out, list.elements());
        }
    }

    private static void writeSplits(DataOutputStream out, List<byte[]> splits) throws IOException {
        out.writeInt(splits.size());
        writeArrays(out, splits);
    }

    private static void writeArrays(DataOutputStream out, List<byte[]> arrays) throws IOException {
        for (byte[] array : arrays) {
            out.writeInt(array.length);
            out.write(array);
        }
    }
}
