package dev.flowscale.engine.source;

import java.util.List;
import java.util.stream.LongStream;

/**
 * Which sequence numbers a generator source has emitted, read from its splits' positions (as a
 * snapshot records them): every number below the position of the one split whose share holds it.
 *
 * <p>After a restore the splits are halved and a reader emits round robin over them, as many
 * records per poll as its output takes; a source behind its schedule (a backlog) therefore advances
 * its splits unevenly, and what it has emitted is not a prefix 0..n-1 of the stream. A test that
 * checks exactly-once results of an endless generator must compare with this set.
 */
public final class GeneratorProgress {
    private GeneratorProgress() {}

    /**
     * The numbers emitted before {@code splits}, ascending.
     *
     * @param splits all splits of one source (over every instance)
     * @throws IllegalArgumentException if the splits' shares do not hold every number exactly once
     *     (then no set of emitted numbers follows from them)
     */
    public static LongStream emitted(List<GeneratorSplit> splits) {
        checkPartition(splits);
        long end = splits.stream().mapToLong(GeneratorSplit::next).max().orElse(0);
        return LongStream.range(0, end).filter(seq -> seq < owner(splits, seq).next());
    }

    /** Share membership repeats with the steps' least common multiple: one period proves it. */
    private static void checkPartition(List<GeneratorSplit> splits) {
        long period = 1;
        for (GeneratorSplit split : splits) {
            if (split.step() < 1 || split.next() < 0) {
                throw new IllegalArgumentException(
                        "generator split " + split + ": step must be >= 1 and next >= 0");
            }
            period = Math.multiplyExact(period / gcd(period, split.step()), split.step());
        }
        for (long seq = 0; seq < period; seq++) {
            owner(splits, seq);
        }
    }

    private static GeneratorSplit owner(List<GeneratorSplit> splits, long seq) {
        GeneratorSplit owner = null;
        for (GeneratorSplit split : splits) {
            if (Math.floorMod(seq - split.next(), split.step()) == 0) {
                if (owner != null) {
                    throw new IllegalArgumentException(
                            "generator splits " + owner + " and " + split + " both hold " + seq);
                }
                owner = split;
            }
        }
        if (owner == null) {
            throw new IllegalArgumentException(
                    "no generator split of " + splits + " holds sequence number " + seq);
        }
        return owner;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
