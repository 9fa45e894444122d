import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.checkpoint.SnapshotInspector;
import dev.flowscale.engine.cli.BuiltinJobs;
import dev.flowscale.engine.cli.JobOptions;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.source.GeneratorProgress;
import dev.flowscale.engine.source.GeneratorSplit;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Reads a snapshot of the built-in wordcount job with the runner's own code, in a process of its
 * own: {@code java -cp flowscale-engine.jar WordCountSnapshot.java <snapshot> <words per sentence>
 * <vocabulary> <job args...>}. Prints one "key value" line each: {@code words} (the words the count
 * operator's state holds), {@code sentences} (how many sentences the source's recorded positions
 * cover), {@code prefix} (whether those are sentences 0 to n-1), {@code splits} (the positions),
 * {@code wrong} (how many words' counts differ from those of exactly the covered sentences, each
 * counted once; seed 42 as wordcount's generator) and up to five {@code example} lines.
 * The operator's tests run it so that neither the engine nor RocksDB is on their class path.
 */
public final class WordCountSnapshot {
    public static void main(String[] args) {
        Path snapshot = Path.of(args[0]);
        int wordsPerSentence = Integer.parseInt(args[1]);
        int vocabulary = Integer.parseInt(args[2]);
        String[] jobArgs = Arrays.copyOfRange(args, 3, args.length);
        JobGraph graph =
                BuiltinJobs.build(
                        "wordcount",
                        CommandLine.populateCommand(new JobOptions(), jobArgs),
                        false);
        Map<Object, Long> counts =
                SnapshotInspector.mergedKeyedState(
                        snapshot, graph, WordCount.COUNT, StateDescriptor.value("count", Long.class));
        List<GeneratorSplit> splits =
                SnapshotInspector.sourceSplits(snapshot, graph, WordCount.SOURCE).stream()
                        .map(GeneratorSplit.class::cast)
                        .toList();
        long[] sentences = GeneratorProgress.emitted(splits).toArray();
        Map<Object, Long> expected = new HashMap<>();
        SentenceGenerator generator = new SentenceGenerator(wordsPerSentence, vocabulary, 42L);
        for (long seq : sentences) {
            WordCount.split(generator.sentence(seq), w -> expected.merge(w, 1L, Long::sum));
        }
        System.out.println("words " + counts.values().stream().mapToLong(Long::longValue).sum());
        System.out.println("sentences " + sentences.length);
        System.out.println(
                "prefix "
                        + (sentences.length == 0
                                || sentences[sentences.length - 1] == sentences.length - 1));
        System.out.println("splits " + splits);
        List<Object> wrong =
                expected.keySet().stream().filter(w -> !expected.get(w).equals(counts.get(w))).toList();
        long extra = counts.keySet().stream().filter(w -> !expected.containsKey(w)).count();
        System.out.println("wrong " + (wrong.size() + extra));
        wrong.stream()
                .limit(5)
                .forEach(
                        w ->
                                System.out.println(
                                        "example " + w + " expected " + expected.get(w) + " counted "
                                                + counts.get(w)));
    }
}
