package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.StateCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Builds the manifest codec once per JVM, on a background thread, when a job that takes snapshots
 * starts. Built on first use, Jackson's serializers for the snapshot records cost the first
 * checkpoint of a run about a quarter of a second of its commit (measured on a loaded 2-core
 * machine: 250 ms to write the first manifest, 6 ms for the next), all of it between the last
 * acknowledgement and the checkpoint's completion.
 */
public final class ManifestWarmUp {
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private ManifestWarmUp() {}

    /** Starts the warm-up unless this JVM already did; returns at once. */
    public static void startOnce() {
        if (STARTED.compareAndSet(false, true)) {
            Thread thread = new Thread(ManifestWarmUp::quietly, "flowscale-manifest-warm-up");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private static void quietly() {
        try {
            roundTrip();
        } catch (RuntimeException e) {
            // Only a head start: the first manifest then builds the codec itself, as before.
        }
    }

    /**
     * Encodes a manifest naming every kind of entry (heap and RocksDB instances, shared and own
     * files) as {@link ManifestFile#write} does, and decodes it as {@link ManifestFile#read} does,
     * in memory; returns what was decoded.
     */
    static SnapshotMetadata roundTrip() {
        try {
            byte[] bytes = ManifestFile.encode(sample());
            JsonNode read = StateCodec.json().readTree(bytes);
            ManifestFile.checksum(read);
            return StateCodec.json().treeToValue(read, SnapshotMetadata.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static SnapshotMetadata sample() {
        RocksDbSnapshot rocksDb =
                new RocksDbSnapshot(
                        "store",
                        Map.of("state", StateDescriptor.Kind.VALUE),
                        List.of(
                                new RocksDbFile("000001.sst", "store-000001.sst", true, 1, 2, "00"),
                                new RocksDbFile("MANIFEST", "op-0-MANIFEST", false, 1, 2, "00")));
        return new SnapshotMetadata(
                SnapshotMetadata.FORMAT_VERSION,
                "warm-up",
                1,
                "CHECKPOINT",
                0,
                128,
                0,
                List.of(
                        new SnapshotMetadata.OperatorEntry(
                                "op",
                                2,
                                List.of(
                                        new TaskStateHandle(
                                                "op", 0, "op-0.state", 1, 2, 0, 63, 0, null),
                                        new TaskStateHandle(
                                                "op",
                                                1,
                                                "op-1.state",
                                                1,
                                                2,
                                                64,
                                                127,
                                                1,
                                                rocksDb)))),
                null);
    }
}
