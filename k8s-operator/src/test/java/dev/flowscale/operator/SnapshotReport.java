package dev.flowscale.operator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a snapshot of the built-in wordcount job holds, read by the runner's jar in a process of its
 * own (src/test/runner-programs/WordCountSnapshot.java, run from source against {@link
 * AutoscalingIT#engineJar}), so that this module's tests need neither the engine nor RocksDB on
 * their class path.
 *
 * @param words the words the count operator's state holds
 * @param sentences how many sentences the source's recorded positions cover
 * @param prefix whether those are sentences 0 to n-1
 * @param splits the source's recorded positions
 * @param wrong how many words' counts differ from those of exactly the covered sentences
 * @param examples up to five such words, with both counts
 */
record SnapshotReport(
        long words,
        long sentences,
        boolean prefix,
        String splits,
        long wrong,
        List<String> examples) {
    static final Path PROGRAM = Path.of("src", "test", "runner-programs", "WordCountSnapshot.java");

    /** Reads {@code snapshot} of wordcount run with {@code jobArgs}. */
    static SnapshotReport of(
            Path snapshot, int wordsPerSentence, int vocabulary, List<String> jobArgs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(
                List.of(
                        "-cp",
                        AutoscalingIT.engineJar().toString(),
                        PROGRAM.toString(),
                        snapshot.toString(),
                        String.valueOf(wordsPerSentence),
                        String.valueOf(vocabulary)));
        command.addAll(jobArgs);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError("reading " + snapshot + " failed: " + command + "\n" + output);
        }
        return parse(output);
    }

    private static SnapshotReport parse(String output) {
        Map<String, String> values = new HashMap<>();
        List<String> examples = new ArrayList<>();
        for (String line : output.split("\\R")) {
            String[] kv = line.split(" ", 2);
            if (kv[0].equals("example")) {
                examples.add(kv[1]);
            } else if (kv.length == 2) {
                values.put(kv[0], kv[1]);
            }
        }
        if (!values.keySet()
                .containsAll(List.of("words", "sentences", "prefix", "splits", "wrong"))) {
            throw new AssertionError("unexpected output of " + PROGRAM + ":\n" + output);
        }
        return new SnapshotReport(
                Long.parseLong(values.get("words")),
                Long.parseLong(values.get("sentences")),
                Boolean.parseBoolean(values.get("prefix")),
                values.get("splits"),
                Long.parseLong(values.get("wrong")),
                List.copyOf(examples));
    }
}
