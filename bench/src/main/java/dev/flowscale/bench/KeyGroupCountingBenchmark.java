package dev.flowscale.bench;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.engine.metrics.KeyGroupCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The task thread's cost of counting records per key group, in isolation: batches of records
 * published through {@link InstanceCounterRecorder#addRecords}, with and without a {@link
 * KeyGroupCounter} call per record, alternated in one JVM after a warm-up. Prints nanoseconds per
 * record of each and their difference, the per-record cost the keyed operators' instrumentation
 * adds. A harness that prints figures, not a test. Usage: {@code KeyGroupCountingBenchmark [rounds
 * 7] [keyGroups 128] [batch 512]}.
 */
public final class KeyGroupCountingBenchmark {
    private static final long RECORDS = 200_000_000L;

    private KeyGroupCountingBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int keyGroups = args.length > 1 ? Integer.parseInt(args[1]) : 128;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 512;
        int[] groups = keys(keyGroups);
        run(false, groups, keyGroups, batch);
        run(true, groups, keyGroups, batch);
        List<Double> plain = new ArrayList<>();
        List<Double> counted = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            plain.add(run(false, groups, keyGroups, batch));
            counted.add(run(true, groups, keyGroups, batch));
        }
        Stats p = Stats.of(plain);
        Stats c = Stats.of(counted);
        System.out.printf(
                Locale.ROOT,
                "key groups %d, batch %d, %,d records a run, %d rounds%n",
                keyGroups,
                batch,
                RECORDS,
                rounds);
        System.out.printf(
                Locale.ROOT,
                "batches only:          median %.3f ns/record (min %.3f, max %.3f)%n",
                p.median(),
                p.min(),
                p.max());
        System.out.printf(
                Locale.ROOT,
                "with key-group counts: median %.3f ns/record (min %.3f, max %.3f)%n",
                c.median(),
                c.min(),
                c.max());
        System.out.printf(
                Locale.ROOT,
                "key-group counting adds %.3f ns/record (difference of the medians)%n",
                c.median() - p.median());
    }

    /** The key group index of each record: half of them one hot key group, the rest spread. */
    private static int[] keys(int keyGroups) {
        int[] groups = new int[4096];
        for (int i = 0; i < groups.length; i++) {
            groups[i] = i % 2 == 0 ? 0 : (int) ((i * 2654435761L >>> 7) % keyGroups);
        }
        return groups;
    }

    private static double run(boolean count, int[] groups, int keyGroups, int batch) {
        InstanceCounterRecorder metrics = new InstanceCounterRecorder("op", 0, false, 0, keyGroups);
        KeyGroupCounter counter = count ? metrics.keyGroupCounter() : null;
        long batches = RECORDS / batch;
        int mask = groups.length - 1;
        long start = System.nanoTime();
        for (long b = 0; b < batches; b++) {
            if (counter != null) {
                for (int i = 0; i < batch; i++) {
                    counter.count(groups[(int) (b * batch + i) & mask]);
                }
            }
            metrics.addRecords(batch, batch);
        }
        double nanos = System.nanoTime() - start;
        long records = batches * batch;
        long counted = java.util.Arrays.stream(metrics.snapshot(0).keyGroupRecords()).sum();
        if (metrics.snapshot(0).recordsIn() != records || counted != (count ? records : 0)) {
            throw new IllegalStateException("records lost: " + counted + " counted of " + records);
        }
        return nanos / records;
    }
}
