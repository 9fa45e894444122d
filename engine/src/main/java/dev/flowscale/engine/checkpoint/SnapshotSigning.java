package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.engine.state.StateCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Binds snapshots to a deployment key: with a key, every manifest carries {@code signature}, an
 * HMAC-SHA256 over the manifest's content (its compact JSON without {@code checksum} and {@code
 * signature}) followed by the bytes of every state file it names, in manifest order. The files'
 * bytes are covered, not only their CRC-32, because a CRC-32 can be kept unchanged by an edit.
 * RocksDB files are covered through the SHA-256 the manifest records for each of them.
 *
 * <p>A runner with a key commits only signed snapshots and restores only snapshots whose signature
 * matches; without a key ({@link #NONE}) nothing is signed and a signature is not checked.
 */
public final class SnapshotSigning {
    /** The environment variable that holds the key when no key file is given. */
    public static final String ENV = "FLOWSCALE_SNAPSHOT_KEY";

    /** The command-line option that names the key file. */
    public static final String OPTION = "--snapshot-key-file";

    /** The least key length: HMAC-SHA256's own block of security, 32 bytes. */
    public static final int MIN_KEY_BYTES = 32;

    static final String SIGNATURE = "signature";

    /** No key: snapshots are written unsigned and read without checking a signature. */
    public static final SnapshotSigning NONE = new SnapshotSigning(null);

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    private SnapshotSigning(SecretKeySpec key) {
        this.key = key;
    }

    /**
     * Signing with {@code key} of at least {@value #MIN_KEY_BYTES} bytes ({@link SnapshotKeys}
     * checks the length with the key's source in its error).
     */
    public static SnapshotSigning withKey(byte[] key) {
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "a snapshot key has at least " + MIN_KEY_BYTES + " bytes, not " + key.length);
        }
        return new SnapshotSigning(new SecretKeySpec(key, ALGORITHM));
    }

    /** Whether snapshots are signed and their signatures checked. */
    public boolean signs() {
        return key != null;
    }

    /** The signature of a manifest whose unsigned compact JSON is {@code content}. */
    String sign(Path dir, byte[] content, SnapshotMetadata metadata) {
        return HexFormat.of().formatHex(mac(dir, content, metadata));
    }

    /**
     * Checks the signature of the manifest {@code json} of {@code dir}, read as {@code metadata}
     * (whose file names are already checked to lie inside {@code dir}); without a key, nothing.
     */
    void verify(Path dir, JsonNode json, SnapshotMetadata metadata) {
        if (!signs()) {
            return;
        }
        JsonNode recorded = json.get(SIGNATURE);
        if (recorded == null || !recorded.isTextual()) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " is not signed, and this runner restores only snapshots signed"
                            + " with its key ("
                            + OPTION
                            + " or "
                            + ENV
                            + "); restore a snapshot written with this key, or run without a key");
        }
        byte[] expected = mac(dir, unsigned(json), metadata);
        if (!MessageDigest.isEqual(expected, hex(recorded.asText()))) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " fails its signature: it was signed with another key, or its"
                            + " manifest or a state file was changed after it was written;"
                            + " restore a snapshot written with this runner's key");
        }
    }

    /** The compact JSON of {@code manifest} without its checksum and signature: what is signed. */
    static byte[] unsigned(JsonNode manifest) {
        ObjectNode copy = manifest.deepCopy();
        copy.remove(ManifestFile.CHECKSUM);
        copy.remove(SIGNATURE);
        try {
            return StateCodec.json().writeValueAsBytes(copy);
        } catch (IOException e) {
            throw new IllegalStateException("a manifest cannot be written as JSON", e);
        }
    }

    private static byte[] hex(String text) {
        try {
            return HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException e) {
            return new byte[0]; // not hex: matches no signature
        }
    }

    private byte[] mac(Path dir, byte[] content, SnapshotMetadata metadata) {
        Mac mac = newMac();
        mac.update(content);
        byte[] buffer = new byte[1 << 16];
        for (SnapshotMetadata.OperatorEntry operator : metadata.operators()) {
            for (TaskStateHandle handle : operator.instances()) {
                Path file = dir.resolve(handle.file());
                try (InputStream in = Files.newInputStream(file)) {
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        mac.update(buffer, 0, n);
                    }
                } catch (IOException e) {
                    throw new SnapshotException(
                            "snapshot "
                                    + dir
                                    + " cannot be signed or checked: "
                                    + file
                                    + " cannot be read ("
                                    + e
                                    + "); restore an earlier snapshot",
                            e);
                }
            }
        }
        return mac.doFinal();
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }

    /** Never the key: this value appears in configuration records' text. */
    @Override
    public String toString() {
        return signs() ? "HMAC-SHA256 signing" : "unsigned";
    }
}
