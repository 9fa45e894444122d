package dev.flowscale.engine.state;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32;

/**
 * A file's length, CRC-32 and SHA-256, as snapshot manifests record them for the files they name
 * and restores check them.
 */
public final class FileSums {
    /** What one pass over a file measured. */
    public record Sums(long bytes, long crc32, String sha256) {}

    private FileSums() {}

    /** Reads {@code file} once for its sums. */
    public static Sums of(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return transfer(in, OutputStream.nullOutputStream());
        }
    }

    /** Copies {@code in} to {@code out} and measures what went through, in one pass. */
    public static Sums transfer(InputStream in, OutputStream out) throws IOException {
        CRC32 crc = new CRC32();
        MessageDigest sha = sha256();
        byte[] buffer = new byte[1 << 16];
        long bytes = 0;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            crc.update(buffer, 0, n);
            sha.update(buffer, 0, n);
            out.write(buffer, 0, n);
            bytes += n;
        }
        return new Sums(bytes, crc.getValue(), HexFormat.of().formatHex(sha.digest()));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
    }
}
