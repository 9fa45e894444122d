package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowscale.engine.state.FileSums;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Links and copies of immutable files into storage, and what they measure. */
class FileCopyTest {
    @TempDir Path dir;

    @Test
    void aFileOnTheSameFileSystemIsLinkedAndMeasuredAsACopyWouldBe() throws Exception {
        Path from = randomFile(dir.resolve("000012.sst"));
        List<Path> unsynced = new ArrayList<>();
        FileSums.Sums linked =
                FileCopy.linkOrCopyUnsynced(from, dir.resolve("linked.sst"), null, unsynced);
        FileSums.Sums copied = FileCopy.copy(from, dir.resolve("copied.sst"));
        assertThat(linked).isEqualTo(copied);
        assertThat(Files.isSameFile(from, dir.resolve("linked.sst"))).isTrue();
        assertThat(dir.resolve("linked.sst.tmp")).doesNotExist();
        assertThat(unsynced)
                .as("a link is the synced file itself; only its folder is synced")
                .isEmpty();
    }

    @Test
    void aLinkLeftAtTheNameByAFailedCheckpointIsKeptAndAnotherFileThereIsReplaced()
            throws Exception {
        Path from = randomFile(dir.resolve("000014.sst"));
        Path target = dir.resolve("store-000014.sst");
        Files.createLink(target, from);
        List<Path> unsynced = new ArrayList<>();
        FileSums.Sums again = FileCopy.linkOrCopyUnsynced(from, target, null, unsynced);
        assertThat(Files.isSameFile(from, target)).isTrue();
        assertThat(again).isEqualTo(FileCopy.copy(from, dir.resolve("copy.sst")));

        Path other = dir.resolve("store-000015.sst");
        Files.writeString(other, "not the SST file");
        Path from15 = randomFile(dir.resolve("000015.sst"));
        FileCopy.linkOrCopyUnsynced(from15, other, null, unsynced);
        assertThat(Files.isSameFile(from15, other)).isTrue();
        assertThat(unsynced).isEmpty();
    }

    @Test
    void aFileOnAnotherFileSystemIsCopied() throws Exception {
        Path shm = Path.of("/dev/shm");
        assumeTrue(
                Files.isDirectory(shm) && !Files.getFileStore(shm).equals(Files.getFileStore(dir)),
                "needs /dev/shm on a file system of its own");
        Path other = Files.createTempDirectory(shm, "filecopytest-");
        try {
            Path from = randomFile(other.resolve("000013.sst"));
            List<Path> unsynced = new ArrayList<>();
            FileSums.Sums sums =
                    FileCopy.linkOrCopyUnsynced(from, dir.resolve("copied.sst"), null, unsynced);
            assertThat(unsynced).containsExactly(dir.resolve("copied.sst"));
            assertThat(Files.isSameFile(from, dir.resolve("copied.sst"))).isFalse();
            assertThat(Files.readAllBytes(dir.resolve("copied.sst")))
                    .isEqualTo(Files.readAllBytes(from));
            assertThat(sums).isEqualTo(FileCopy.copy(from, dir.resolve("again.sst")));
        } finally {
            IncrementalCheckpoint.deleteTree(other);
        }
    }

    private static Path randomFile(Path path) throws Exception {
        byte[] bytes = new byte[200_000];
        new Random(7).nextBytes(bytes);
        return Files.write(path, bytes);
    }
}
