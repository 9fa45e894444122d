package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.engine.state.StateCodec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Writes and reads a snapshot's manifest ({@code _metadata}). Writing is atomic (temporary file,
 * fsync, fence check, rename, fsync of the directory): the rename is the commit. Reading checks,
 * before anything else is trusted, the format version, that every field is present, the manifest's
 * own SHA-256, that every file it names is a plain name inside the snapshot and, with a deployment
 * key, its signature ({@link SnapshotSigning}).
 */
public final class ManifestFile {
    static final String CHECKSUM = "checksum";

    /**
     * The manifest's writer: serializers chosen by the records' declared types, not by the classes
     * of the lists and maps they hold, so that a manifest built from other collection classes than
     * the warm-up's ({@link CheckpointWarmUp}) needs no new serializer at a checkpoint's commit
     * (building them took 6 of a first commit's 7 ms of CPU on the benchmark machine). The same
     * JSON as the untyped mapper's: every property's declared type is a record, a list or map of
     * them, a string, an enum or a number.
     */
    private static final ObjectMapper WRITER =
            JsonMapper.builder()
                    .enable(MapperFeature.USE_STATIC_TYPING)
                    .findAndAddModules()
                    .build();

    private ManifestFile() {}

    /**
     * Commits {@code metadata} in {@code dir}. {@code fence} runs after the manifest is durable and
     * before the rename; it throws if this writer may no longer commit.
     */
    public static void write(Path dir, SnapshotMetadata metadata, Runnable fence) {
        write(dir, metadata, fence, SnapshotSigning.NONE);
    }

    /**
     * As {@link #write(Path, SnapshotMetadata, Runnable)}, signed when {@code signing} has a key.
     */
    public static void write(
            Path dir, SnapshotMetadata metadata, Runnable fence, SnapshotSigning signing) {
        Path tmp = dir.resolve(SnapshotMetadata.FILE_NAME + ".tmp");
        Path target = dir.resolve(SnapshotMetadata.FILE_NAME);
        try {
            Files.write(tmp, encode(metadata, dir, signing));
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            fence.run();
            rename(dir, tmp, target);
            fsyncDirectory(dir);
        } catch (IOException e) {
            throw new SnapshotException(
                    "cannot write the manifest of "
                            + dir
                            + ": "
                            + e.getMessage()
                            + "; check that the storage is writable and not full",
                    e);
        }
    }

    private static void rename(Path dir, Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new SnapshotException(
                    "the file system of "
                            + dir
                            + " cannot rename atomically; use a local "
                            + "disk or a volume that supports atomic rename",
                    e);
        }
    }

    private static void fsyncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems cannot open a directory for sync; the rename is still atomic.
        }
    }

    /**
     * The manifest as written: pretty JSON with its checksum. Two passes over the record, compact
     * without the checksum (a null checksum is left out, so these are the bytes {@link
     * #checksum(JsonNode)} hashes when reading) and pretty with it; a JSON tree and its copy for
     * the checksum took two more on the checkpoint's commit.
     */
    static byte[] encode(SnapshotMetadata metadata) throws IOException {
        return encode(metadata, null, SnapshotSigning.NONE);
    }

    /**
     * With a key, a third pass signs the unsigned compact JSON and the files in {@code dir}; the
     * checksum then covers the signature too.
     */
    static byte[] encode(SnapshotMetadata metadata, Path dir, SnapshotSigning signing)
            throws IOException {
        SnapshotMetadata unsummed = metadata.withChecksum(null);
        if (signing.signs()) {
            byte[] content = WRITER.writeValueAsBytes(unsummed.withSignature(null));
            unsummed = unsummed.withSignature(signing.sign(dir, content, metadata));
        }
        String checksum = sha256(WRITER.writeValueAsBytes(unsummed));
        return WRITER.writerWithDefaultPrettyPrinter()
                .writeValueAsBytes(unsummed.withChecksum(checksum));
    }

    /** SHA-256 (hex) of the compact JSON of {@code manifest} without its checksum field. */
    static String checksum(JsonNode manifest) {
        ObjectNode copy = manifest.deepCopy();
        copy.remove(CHECKSUM);
        try {
            return sha256(StateCodec.json().writeValueAsBytes(copy));
        } catch (IOException e) {
            throw new IllegalStateException("SHA-256 of a manifest cannot be computed", e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 of a manifest cannot be computed", e);
        }
    }

    /** Reads and checks the manifest of {@code dir}; see the class comment for what is checked. */
    public static SnapshotMetadata read(Path dir) {
        return read(dir, SnapshotSigning.NONE);
    }

    /**
     * As {@link #read(Path)}, and with a key, last, the signature over the manifest and its files
     * (once their names are known to lie inside {@code dir}).
     */
    public static SnapshotMetadata read(Path dir, SnapshotSigning signing) {
        JsonNode json = parse(dir);
        int version = json.path("formatVersion").asInt(-1);
        if (version < SnapshotMetadata.OLDEST_FORMAT_VERSION
                || version > SnapshotMetadata.FORMAT_VERSION) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " has format version "
                            + version
                            + "; this flowscale "
                            + "reads versions "
                            + SnapshotMetadata.OLDEST_FORMAT_VERSION
                            + " to "
                            + SnapshotMetadata.FORMAT_VERSION
                            + " only");
        }
        ManifestFields.check(dir, json);
        String recorded = json.get(CHECKSUM).asText();
        String actual = checksum(json);
        if (!actual.equals(recorded)) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " is corrupt: "
                            + SnapshotMetadata.FILE_NAME
                            + " fails its own checksum (SHA-256 "
                            + actual
                            + ", recorded "
                            + recorded
                            + "): it was edited or damaged; restore an earlier snapshot");
        }
        try {
            SnapshotMetadata metadata = StateCodec.json().treeToValue(json, SnapshotMetadata.class);
            ManifestFields.checkFiles(dir, metadata);
            signing.verify(dir, json, metadata);
            return metadata;
        } catch (IOException e) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " is corrupt: "
                            + SnapshotMetadata.FILE_NAME
                            + " does not match the format ("
                            + e.getMessage()
                            + ")",
                    e);
        }
    }

    private static JsonNode parse(Path dir) {
        Path file = dir.resolve(SnapshotMetadata.FILE_NAME);
        if (!Files.isRegularFile(file)) {
            throw new SnapshotException(
                    "no snapshot at "
                            + dir
                            + ": "
                            + SnapshotMetadata.FILE_NAME
                            + " is missing "
                            + "(a wrong path, or a snapshot that never completed); pass the directory of a completed savepoint");
        }
        try {
            JsonNode json = StateCodec.json().readTree(file.toFile());
            if (json == null || !json.isObject()) {
                throw new IOException("the top level is not a JSON object");
            }
            return json;
        } catch (IOException e) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " is corrupt: "
                            + SnapshotMetadata.FILE_NAME
                            + " is not valid JSON ("
                            + e.getMessage()
                            + ")",
                    e);
        }
    }
}
