package dev.flowscale.engine.checkpoint;

import static dev.flowscale.engine.state.StateBackendConfig.Kind.HEAP;
import static dev.flowscale.engine.state.StateBackendConfig.Kind.ROCKSDB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A damaged length field never allocates what it claims (issue 14 item 4: 129 of 25,260 byte
 * changes gave OutOfMemoryError under a 256 MB heap). The allocation of the reading thread is
 * measured, so the test fails where a small heap would: any read that allocated near the claimed
 * size would show here as hundreds of megabytes.
 */
class DamagedLengthTest {
    private static final JobGraph GRAPH =
            CountingJob.graph(2_000, 40, Map.of(CountingJob.COUNT, 8));

    /** Far more than the whole snapshot, far less than any damaged length would allocate. */
    private static final long ALLOCATION_LIMIT = 16L << 20;

    /**
     * Offset of the first key group's block length after the header: key group count, key group.
     */
    private static final int FIRST_BLOCK_LENGTH = 8;

    @TempDir static Path storage;

    /** A good savepoint taken by each state backend (they write the same format). */
    private static final Map<StateBackendConfig.Kind, Path> GOOD =
            new EnumMap<>(StateBackendConfig.Kind.class);

    @BeforeAll
    static void takeAGoodSavepointOnEachBackend() throws Exception {
        GOOD.put(HEAP, SnapshotFiles.finalSavepoint(GRAPH, storage.resolve("heap")));
        GOOD.put(
                ROCKSDB,
                SnapshotFiles.finalSavepoint(
                        GRAPH, storage.resolve("rocksdb"), StateBackendConfig.rocksDb()));
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void aHugeLengthWithAMatchingChecksumIsRefusedWithoutAllocatingIt(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        Path copy = SnapshotFiles.copyTree(GOOD.get(backend), dir, "copy");
        byte[] content = Files.readAllBytes(SnapshotFiles.stateFile(copy, CountingJob.COUNT, 0));
        ByteBuffer.wrap(content)
                .putInt(SnapshotFiles.bodyOffset(content) + FIRST_BLOCK_LENGTH, 1 << 30);
        SnapshotFiles.rewriteStateFile(copy, CountingJob.COUNT, 0, content);

        long allocated =
                allocatedBy(
                        () ->
                                assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                                        .isInstanceOf(SnapshotException.class)
                                        .hasMessageContaining("is damaged")
                                        .hasMessageContaining("says 1073741824 bytes but only"));
        assertThat(allocated).isLessThan(ALLOCATION_LIMIT);
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void aHugeElementCountWithAMatchingChecksumIsRefusedWithoutAllocatingIt(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        Path copy = SnapshotFiles.copyTree(GOOD.get(backend), dir, "copy");
        byte[] content = Files.readAllBytes(SnapshotFiles.stateFile(copy, CountingJob.COUNT, 0));
        ByteBuffer.wrap(content).putInt(SnapshotFiles.bodyOffset(content), Integer.MAX_VALUE);
        SnapshotFiles.rewriteStateFile(copy, CountingJob.COUNT, 0, content);

        assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("the count of key groups says 2147483647");
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void everySingleByteChangeInAStateFileIsRefusedWithoutLargeAllocations(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        Path copy = SnapshotFiles.copyTree(GOOD.get(backend), dir, "copy");
        Path file = SnapshotFiles.stateFile(copy, CountingJob.COUNT, 1);
        byte[] original = Files.readAllBytes(file);
        for (int offset = 0; offset < original.length; offset++) {
            byte[] damaged = original.clone();
            damaged[offset] = (byte) (offset % 2 == 0 ? 0x7F : damaged[offset] ^ 0xFF);
            if (damaged[offset] == original[offset]) {
                damaged[offset] ^= 0x01;
            }
            Files.write(file, damaged);
            int at = offset;
            long allocated =
                    allocatedBy(
                            () ->
                                    assertThatThrownBy(() -> SnapshotReader.read(copy, GRAPH))
                                            .as("byte " + at)
                                            .isInstanceOf(SnapshotException.class)
                                            .hasMessageContaining("checksum"));
            assertThat(allocated)
                    .as("allocated reading with byte " + at + " changed")
                    .isLessThan(ALLOCATION_LIMIT);
        }
    }

    /** Bytes allocated by every thread of this JVM (the reader decodes files in parallel). */
    private static long allocatedBy(Runnable action) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] ids = threads.getAllThreadIds();
        long before = LongStream.of(threads.getThreadAllocatedBytes(ids)).filter(b -> b > 0).sum();
        action.run();
        ids = threads.getAllThreadIds();
        return LongStream.of(threads.getThreadAllocatedBytes(ids)).filter(b -> b > 0).sum()
                - before;
    }
}
