package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.JobBuilder;
import dev.flowscale.engine.api.Sinks;
import dev.flowscale.engine.api.Sources;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.examples.CostChain;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.source.SentenceGenerator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The example jobs the command line runs by name, configured from options. */
public final class BuiltinJobs {
    public static final List<String> NAMES = List.of("wordcount", "chain");
    static final Set<String> JOB_OPTIONS = Set.of("rate", "parallelism", "cost", "words-per-sentence",
            "vocabulary", "stages", "stage-cost", "max-parallelism");

    private BuiltinJobs() {
    }

    static JobBuilder build(String name, CliOptions options) {
        JobBuilder job = switch (name) {
            case "wordcount" -> wordCount(options);
            case "chain" -> chain(options);
            default -> throw new InvalidJobException("unknown job '" + name + "'; built-in jobs are " + NAMES);
        };
        job.maxParallelism(options.integer("max-parallelism", 128, 1));
        options.assignments("parallelism").forEach((op, p) -> job.parallelism(op, parseParallelism(op, p)));
        options.assignments("cost").forEach((op, c) -> job.cost(op, SyntheticCost.parse(c)));
        return job;
    }

    private static JobBuilder wordCount(CliOptions options) {
        SentenceGenerator generator = new SentenceGenerator(options.integer("words-per-sentence", 10, 1),
                options.integer("vocabulary", 10_000, 1), 42L);
        return WordCount.build("wordcount", Sources.sentences(rate(options), generator), Sinks.counting());
    }

    private static JobBuilder chain(CliOptions options) {
        SyntheticCost cost = SyntheticCost.parse(options.text("stage-cost", "cpu:20us"));
        List<CostChain.Stage> stages = CostChain.uniform(options.integer("stages", 3, 1), cost);
        return CostChain.build("chain", Sources.generator(rate(options), seq -> seq), stages, Sinks.counting());
    }

    /** "max" (the default) means as fast as the job can go. */
    private static RateProfile rate(CliOptions options) {
        String spec = options.text("rate", "max");
        return spec.equals("max") ? null : RateProfile.parse(spec);
    }

    private static int parseParallelism(String op, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new InvalidJobException("option --parallelism " + op + "=" + value + " is not a whole number");
        }
    }

    static Map<String, String> describe() {
        return Map.of("wordcount", "sentences -> split -> keyBy word -> count -> sink",
                "chain", "source -> map1..mapN (each with --stage-cost) -> sink");
    }
}
