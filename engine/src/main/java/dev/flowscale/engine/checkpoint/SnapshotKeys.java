package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.InvalidJobException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a runner's snapshot key comes from: {@value SnapshotSigning#OPTION} FILE, else the
 * environment variable {@value SnapshotSigning#ENV} (on Kubernetes, set from a Secret), else none
 * (snapshots unsigned). The key is the text, its surrounding whitespace dropped (so a file written
 * by {@code echo} works); a key that is given but too short is an error, never an unsigned run.
 */
public final class SnapshotKeys {
    private SnapshotKeys() {}

    /** The signing of a runner given {@code keyFile} (null: not given) and {@code env}. */
    public static SnapshotSigning resolve(Path keyFile, Map<String, String> env) {
        if (keyFile != null) {
            return signing(read(keyFile), "option " + SnapshotSigning.OPTION + " " + keyFile);
        }
        String fromEnv = env.get(SnapshotSigning.ENV);
        return fromEnv == null
                ? SnapshotSigning.NONE
                : signing(fromEnv, "environment variable " + SnapshotSigning.ENV);
    }

    private static SnapshotSigning signing(String text, String source) {
        byte[] key = text.strip().getBytes(StandardCharsets.UTF_8);
        if (key.length < SnapshotSigning.MIN_KEY_BYTES) {
            throw new InvalidJobException(
                    source
                            + " holds a snapshot key of "
                            + key.length
                            + " bytes; give at least "
                            + SnapshotSigning.MIN_KEY_BYTES
                            + " (e.g. the output of 'openssl rand -hex 32')");
        }
        return SnapshotSigning.withKey(key);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new InvalidJobException(
                    "option "
                            + SnapshotSigning.OPTION
                            + " "
                            + file
                            + " cannot be read ("
                            + e
                            + "); name a readable file holding the snapshot key");
        }
    }
}
