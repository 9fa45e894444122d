package dev.flowscale.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU use of the whole machine from /proc/stat (Linux), to tell how much of it went to other
 * processes while a run was measured, and to wait for a quiet machine before a run. On systems
 * without /proc/stat it reports nothing and never waits.
 */
public final class MachineLoad {
    private static final Path STAT = Path.of("/proc/stat");
    private static final double TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private MachineLoad() {}

    /** Busy and total CPU seconds summed over all CPUs since boot, or null if unknown. */
    public record Sample(double busySeconds, double totalSeconds) {
        public double busyCoresSince(Sample earlier, double wallSeconds) {
            return (busySeconds - earlier.busySeconds) / wallSeconds;
        }
    }

    public static Sample sample() {
        try {
            String[] f = Files.readAllLines(STAT).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return new Sample((total - idle) / TICKS_PER_SECOND, total / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** CPU cores busy over the next second (this harness idles meanwhile); NaN if unknown. */
    static double busyCoresNow() throws InterruptedException {
        Sample before = sample();
        long start = System.nanoTime();
        Thread.sleep(1000);
        Sample after = sample();
        if (before == null || after == null) {
            return Double.NaN;
        }
        return after.busyCoresSince(before, (System.nanoTime() - start) / 1e9);
    }

    /**
     * Waits until other processes keep at most {@code maxBusyCores} busy, for at most {@code
     * maxWaitSeconds}; returns the last reading.
     */
    static double awaitQuiet(double maxBusyCores, long maxWaitSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + maxWaitSeconds * 1_000_000_000L;
        double busy = busyCoresNow();
        while (busy > maxBusyCores && System.nanoTime() < deadline) {
            Thread.sleep(2000);
            busy = busyCoresNow();
        }
        return busy;
    }
}
