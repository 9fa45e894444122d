package dev.flowscale.bench;

import dev.flowscale.engine.api.LongValueState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;
import dev.flowscale.engine.state.LongValues;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Word count's keyed state access alone, on one thread: for each word of the throughput benchmark's
 * sentences, set it as the current key and count it, on the heap backend with one instance owning
 * every key group, once in a {@code ValueState<Long>} (read the count, write it plus one) and once
 * in a {@link LongValueState} ({@code add(1)}, as {@link WordCount.CountWords} does), alternately
 * in each round. Each round counts fresh word strings (made before the round, as the split makes
 * them) and is timed in this thread's CPU time; prints the CPU nanoseconds per word of each round
 * and the median of the second half (the first rounds warm the JIT up). A harness that prints
 * figures, not a test. Usage: {@code KeyedStateBenchmark [rounds 10] [sentences per round 200000]}.
 */
public final class KeyedStateBenchmark {
    private KeyedStateBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int sentences = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        KeyedStateBackend boxed = backend();
        KeyedStateBackend unboxed = backend();
        ValueState<Long> count = KeyedStates.value(boxed, boxed.table(COUNT));
        LongValueState longCount = LongValues.of(unboxed, unboxed.table(COUNT));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SentenceGenerator generator = Workload.sentences();
        List<Double> boxedPerWord = new ArrayList<>();
        List<Double> unboxedPerWord = new ArrayList<>();
        long counted = 0;
        for (int round = 0; round < rounds; round++) {
            String[] words = words(generator, (long) round * sentences, sentences);
            long start = threads.getCurrentThreadCpuTime();
            for (String word : words) {
                boxed.setCurrentKey(word);
                Long current = count.value();
                count.update(current == null ? 1 : current + 1);
            }
            long middle = threads.getCurrentThreadCpuTime();
            for (String word : words) {
                unboxed.setCurrentKey(word);
                longCount.add(1);
            }
            long end = threads.getCurrentThreadCpuTime();
            boxedPerWord.add((middle - start) / (double) words.length);
            unboxedPerWord.add((end - middle) / (double) words.length);
            counted += words.length;
        }
        check(boxed, counted);
        check(unboxed, counted);
        print("ValueState<Long>", boxedPerWord, counted);
        print("LongValueState", unboxedPerWord, counted);
    }

    private static final StateDescriptor<Long> COUNT = StateDescriptor.value("count", Long.class);

    private static KeyedStateBackend backend() {
        return new KeyedStateBackend(
                "count",
                KeyGroups.DEFAULT_KEY_GROUPS,
                new KeyGroupRange(0, KeyGroups.DEFAULT_KEY_GROUPS - 1));
    }

    private static String[] words(SentenceGenerator generator, long from, int sentences) {
        List<String> words = new ArrayList<>(sentences * Workload.WORDS_PER_SENTENCE);
        for (long seq = from; seq < from + sentences; seq++) {
            WordCount.split(generator.sentence(seq), words::add);
        }
        return words.toArray(String[]::new);
    }

    private static void check(KeyedStateBackend backend, long counted) {
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
    }

    private static void print(String state, List<Double> perWord, long counted) {
        StringBuilder rounds = new StringBuilder();
        perWord.forEach(ns -> rounds.append(String.format(Locale.ROOT, " %.1f", ns)));
        System.out.println(state + ", CPU ns per word, by round:" + rounds);
        Stats steady = Stats.of(perWord.subList(perWord.size() / 2, perWord.size()));
        System.out.printf(
                Locale.ROOT,
                "%s, median of the second half: %.1f ns per word (min %.1f, max %.1f); %,d words%n",
                state,
                steady.median(),
                steady.min(),
                steady.max(),
                counted);
    }
}
