package dev.flowscale.bench;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Word count's keyed state access alone, on one thread: for each word of the throughput benchmark's
 * sentences, set it as the current key, read its count and write the count plus one, as {@link
 * WordCount.CountWords} does, on the heap backend with one instance owning every key group. Each
 * round counts fresh word strings (made before the round, as the split makes them) and is timed in
 * this thread's CPU time; prints the CPU nanoseconds per word of each round and the median of the
 * second half (the first rounds warm the JIT up). A harness that prints figures, not a test. Usage:
 * {@code KeyedStateBenchmark [rounds 10] [sentences per round 200000]}.
 */
public final class KeyedStateBenchmark {
    private KeyedStateBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int sentences = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        KeyedStateBackend backend =
                new KeyedStateBackend(
                        "count",
                        KeyGroups.DEFAULT_KEY_GROUPS,
                        new KeyGroupRange(0, KeyGroups.DEFAULT_KEY_GROUPS - 1));
        ValueState<Long> count =
                KeyedStates.value(
                        backend, backend.table(StateDescriptor.value("count", Long.class)));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SentenceGenerator generator = Workload.sentences();
        List<Double> perWord = new ArrayList<>();
        long counted = 0;
        for (int round = 0; round < rounds; round++) {
            String[] words = words(generator, (long) round * sentences, sentences);
            long start = threads.getCurrentThreadCpuTime();
            for (String word : words) {
                backend.setCurrentKey(word);
                Long current = count.value();
                count.update(current == null ? 1 : current + 1);
            }
            perWord.add((threads.getCurrentThreadCpuTime() - start) / (double) words.length);
            counted += words.length;
        }
        print(perWord, counted, backend);
    }

    private static String[] words(SentenceGenerator generator, long from, int sentences) {
        List<String> words = new ArrayList<>(sentences * Workload.WORDS_PER_SENTENCE);
        for (long seq = from; seq < from + sentences; seq++) {
            WordCount.split(generator.sentence(seq), words::add);
        }
        return words.toArray(String[]::new);
    }

    private static void print(List<Double> perWord, long counted, KeyedStateBackend backend) {
        long total = 0;
        var table = backend.tables().get("count");
        for (int g = 0; g < table.groupCount(); g++) {
            for (Object n : table.group(g).values()) {
                total += (Long) n;
            }
        }
        if (total != counted) {
            throw new IllegalStateException("counted " + total + " of " + counted + " words");
        }
        StringBuilder rounds = new StringBuilder();
        perWord.forEach(ns -> rounds.append(String.format(Locale.ROOT, " %.1f", ns)));
        System.out.println("CPU ns per word, by round:" + rounds);
        Stats steady = Stats.of(perWord.subList(perWord.size() / 2, perWord.size()));
        System.out.printf(
                Locale.ROOT,
                "median of the second half: %.1f ns per word (min %.1f, max %.1f); %,d words%n",
                steady.median(),
                steady.min(),
                steady.max(),
                counted);
    }
}
