package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner JVM with a 48 MB heap keeps 80 MB of keyed state in RocksDB and stops with a savepoint
 * that holds all of it; on the heap backend the same job could not hold its state.
 */
class LargeStateOnRocksDbTest {
    private static final long KEYS = 80_000;

    @Test
    void aJobWithMoreKeyedStateThanItsHeapRunsOnRocksDb(@TempDir Path dir) throws Exception {
        Process runner =
                ChildJvm.command(
                                List.of("-Xmx48m"),
                                LargeStateRunner.class.getName(),
                                List.of(dir.toString(), Long.toString(KEYS)))
                        .redirectErrorStream(true)
                        .start();
        String output = new String(runner.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(runner.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(runner.exitValue()).as(output).isZero();
        Path savepoint =
                Path.of(
                        output.lines()
                                .filter(l -> l.startsWith("savepoint "))
                                .findFirst()
                                .orElseThrow()
                                .substring("savepoint ".length()));

        assertThat(size(savepoint)).isGreaterThan(KEYS * LargeStateRunner.VALUE_BYTES);
        Map<Object, String> state =
                SnapshotInspector.mergedKeyedState(
                        savepoint, LargeStateRunner.graph(KEYS), "store", LargeStateRunner.PAYLOAD);
        assertThat(state).hasSize((int) KEYS);
        assertThat(state.get(12_345L)).isEqualTo(LargeStateRunner.value(12_345L));
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
