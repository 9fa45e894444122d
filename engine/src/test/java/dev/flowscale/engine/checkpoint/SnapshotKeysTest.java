package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot key from its file, else the environment, else none; too short is an error. */
class SnapshotKeysTest {
    private static final String KEY = "0123456789abcdef0123456789abcdef";

    @Test
    void neitherFileNorEnvironmentMeansUnsigned() {
        assertThat(SnapshotKeys.resolve(null, Map.of())).isSameAs(SnapshotSigning.NONE);
    }

    @Test
    void theFileWinsOverTheEnvironmentAndItsTrailingNewlineIsNoPartOfTheKey(@TempDir Path dir)
            throws Exception {
        Path file = Files.writeString(dir.resolve("key"), KEY + "\n");
        SnapshotSigning fromFile =
                SnapshotKeys.resolve(file, Map.of(SnapshotSigning.ENV, "x".repeat(40)));
        SnapshotSigning same = SnapshotSigning.withKey(KEY.getBytes());
        byte[] content = "{}".getBytes();
        SnapshotMetadata empty =
                new SnapshotMetadata(
                        3, "j", 1, "CHECKPOINT", 0, 1, 0, java.util.List.of(), null, null);

        assertThat(fromFile.sign(dir, content, empty)).isEqualTo(same.sign(dir, content, empty));
        assertThat(fromFile.toString()).doesNotContain(KEY);
    }

    @Test
    void theEnvironmentVariableIsUsedWithoutAFile() {
        assertThat(SnapshotKeys.resolve(null, Map.of(SnapshotSigning.ENV, KEY)).signs()).isTrue();
    }

    @Test
    void aShortKeyIsRefusedNamingItsSourceAndTheLength(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("key"), "secret\n");
        assertThatThrownBy(() -> SnapshotKeys.resolve(file, Map.of()))
                .isInstanceOf(InvalidJobException.class)
                .hasMessage(
                        "option --snapshot-key-file "
                                + file
                                + " holds a snapshot key of 6 bytes; give at least 32 (e.g. the"
                                + " output of 'openssl rand -hex 32')");
        assertThatThrownBy(() -> SnapshotKeys.resolve(null, Map.of(SnapshotSigning.ENV, "")))
                .hasMessageStartingWith("environment variable FLOWSCALE_SNAPSHOT_KEY holds a");
    }

    @Test
    void anUnreadableKeyFileIsRefusedNamingTheOption(@TempDir Path dir) {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> SnapshotKeys.resolve(missing, Map.of()))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageStartingWith("option --snapshot-key-file " + missing + " cannot be read")
                .hasMessageEndingWith("name a readable file holding the snapshot key");
    }
}
