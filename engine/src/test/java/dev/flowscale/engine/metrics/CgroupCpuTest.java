package dev.flowscale.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.runner.api.MetricsView;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupCpuTest {

    @Test
    void readsThePeriodsAndTheTimeTheCgroupWasThrottled(@TempDir Path dir) throws Exception {
        Path stat = dir.resolve("cpu.stat");
        Files.writeString(
                stat,
                "usage_usec 8123456\nuser_usec 7000000\nsystem_usec 1123456\n"
                        + "nr_periods 420\nnr_throttled 37\nthrottled_usec 1850000\n");
        assertThat(CgroupCpu.read(stat))
                .hasValue(new MetricsView.CpuThrottling(420, 37, 1_850_000));
    }

    @Test
    void withoutTheFileOrItsThrottlingCountersTheyAreUnknownNotZero(@TempDir Path dir)
            throws Exception {
        assertThat(CgroupCpu.read(dir.resolve("absent"))).isEmpty();
        Path noLimit = dir.resolve("cpu.stat");
        Files.writeString(noLimit, "usage_usec 8123456\nuser_usec 7000000\n");
        assertThat(CgroupCpu.read(noLimit)).isEmpty();
    }
}
