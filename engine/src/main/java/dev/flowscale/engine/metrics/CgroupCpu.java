package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.MetricsView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the CPU throttling counters of the process's cgroup (v2: {@code cpu.stat}'s {@code
 * nr_periods}, {@code nr_throttled} and {@code throttled_usec}). A pod's CPU limit throttles every
 * thread of the runner at once; the time throttled is time no instance ran although its useful time
 * kept counting. Empty where there is no such file or it lacks the counters (no cgroup v2, no CPU
 * controller): unknown, not zero.
 */
public final class CgroupCpu {

    /** Where cgroup v2 shows a container its own cgroup. */
    public static final Path DEFAULT = Path.of("/sys/fs/cgroup/cpu.stat");

    private CgroupCpu() {}

    /** The counters in {@code cpuStat}; empty when it cannot be read or lacks one of them. */
    public static Optional<MetricsView.CpuThrottling> read(Path cpuStat) {
        Map<String, Long> values = new HashMap<>();
        try {
            for (String line : Files.readAllLines(cpuStat)) {
                String[] kv = line.trim().split("\\s+");
                if (kv.length == 2 && kv[1].chars().allMatch(Character::isDigit)) {
                    values.put(kv[0], Long.parseLong(kv[1]));
                }
            }
        } catch (IOException | NumberFormatException | SecurityException e) {
            return Optional.empty();
        }
        Long periods = values.get("nr_periods");
        Long throttled = values.get("nr_throttled");
        Long micros = values.get("throttled_usec");
        return periods == null || throttled == null || micros == null
                ? Optional.empty()
                : Optional.of(new MetricsView.CpuThrottling(periods, throttled, micros));
    }
}
