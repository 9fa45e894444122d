package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowscale.engine.state.FileSums;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Links and copies of immutable files into storage, and what they measure. */
class FileCopyTest {
    @TempDir Path dir;

    @Test
    void aFileOnTheSameFileSystemIsLinkedAndMeasuredAsACopyWouldBe() throws Exception {
        Path from = randomFile(dir.resolve("000012.sst"));
        FileSums.Sums linked = FileCopy.linkOrCopyUnsynced(from, dir.resolve("linked.sst"), null);
        FileSums.Sums copied = FileCopy.copy(from, dir.resolve("copied.sst"));
        assertThat(linked).isEqualTo(copied);
        assertThat(Files.isSameFile(from, dir.resolve("linked.sst"))).isTrue();
        assertThat(dir.resolve("linked.sst.tmp")).doesNotExist();
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
            FileSums.Sums sums = FileCopy.linkOrCopyUnsynced(from, dir.resolve("copied.sst"), null);
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
