package dev.flowscale.cli.inprocess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A loaded machine made on purpose: a separate JVM whose threads spin until it is closed. Separate,
 * because spinning threads in the test's own JVM would also stretch every safepoint the job's
 * threads stop at, a stall that is not a wait for a core; a build running beside a job loads its
 * cores only.
 */
final class BusyThreads implements AutoCloseable {

    private static final String READY = "spinning";

    private final Process process;

    private BusyThreads(Process process) {
        this.process = process;
    }

    /** Starts {@code count} spinning threads in a new JVM and returns once they spin. */
    static BusyThreads start(int count) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process =
                new ProcessBuilder(
                                java,
                                "-cp",
                                System.getProperty("java.class.path"),
                                BusyThreads.class.getName(),
                                Integer.toString(count))
                        .redirectErrorStream(true)
                        .start();
        BusyThreads busy = new BusyThreads(process);
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!READY.equals(line)) {
            busy.close();
            throw new IllegalStateException("busy JVM did not start spinning: " + line);
        }
        return busy;
    }

    /** The child JVM: spins on {@code args[0]} threads until it is destroyed. */
    public static void main(String[] args) {
        int count = Integer.parseInt(args[0]);
        for (int i = 0; i < count; i++) {
            long seed = i;
            new Thread(() -> spin(seed), "busy-" + i).start();
        }
        System.out.println(READY);
        System.out.flush();
    }

    /** Xorshift steps: from a non-zero seed never zero, so the loop spins until the JVM exits. */
    private static void spin(long seed) {
        long x = seed | 1;
        while (x != 0) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
