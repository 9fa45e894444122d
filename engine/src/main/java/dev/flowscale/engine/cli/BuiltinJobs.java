package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.examples.CostChain;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.state.KeyGroups;
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
        checkJobOptions(name, options);
        int keyGroups = options.integer("max-parallelism", 128, 1, KeyGroups.UPPER_BOUND_MAX_PARALLELISM);
        job.maxParallelism(keyGroups);
        configureOperators(job, options, "max-parallelism", keyGroups);
        return job;
    }

    /**
     * Applies {@code --parallelism} and {@code --cost} to {@code job}, checking each value
     * against the number of key groups, which the command takes as {@code keyGroupsOption}.
     */
    public static void configureOperators(JobBuilder job, CliOptions options, String keyGroupsOption, int keyGroups) {
        options.assignments("parallelism").forEach((op, p) -> job.parallelism(op,
                parseParallelism(op, p, keyGroupsOption, keyGroups)));
        options.assignments("cost").forEach((op, c) -> job.cost(op, parse("cost", op + "=" + c,
                () -> SyntheticCost.parse(c))));
    }

    /** Runs {@code parser}; its error is prefixed with the option that gave the value. */
    public static <T> T parse(String option, String value, java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (EngineException e) {
            throw new InvalidJobException("option --" + option + " " + value + ": " + e.getMessage());
        }
    }

    /** Options of one built-in job are refused for the other, rather than silently ignored. */
    public static void checkJobOptions(String job, CliOptions options) {
        onlyFor(job, options, "chain", "stages", "stage-cost");
        onlyFor(job, options, "wordcount", "words-per-sentence", "vocabulary");
    }

    private static void onlyFor(String job, CliOptions options, String owner, String... names) {
        for (String name : names) {
            if (!job.equals(owner) && options.has(name)) {
                throw new InvalidJobException("option --" + name + " applies to job " + owner + " only, not " + job);
            }
        }
    }

    private static JobBuilder wordCount(CliOptions options) {
        SentenceGenerator generator = new SentenceGenerator(options.integer("words-per-sentence", 10, 1),
                options.integer("vocabulary", 10_000, 1), 42L);
        return WordCount.build("wordcount", Sources.sentences(rate(options), generator), Sinks.counting());
    }

    private static JobBuilder chain(CliOptions options) {
        String spec = options.text("stage-cost", "cpu:20us");
        SyntheticCost cost = parse("stage-cost", spec, () -> SyntheticCost.parse(spec));
        List<CostChain.Stage> stages = CostChain.uniform(options.integer("stages", 3, 1), cost);
        return CostChain.build("chain", Sources.generator(rate(options), seq -> seq), stages, Sinks.counting());
    }

    /** "max" (the default) means as fast as the job can go. */
    private static RateProfile rate(CliOptions options) {
        String spec = options.text("rate", "max");
        return spec.equals("max") ? null : parse("rate", spec, () -> RateProfile.parse(spec));
    }

    private static int parseParallelism(String op, String value, String keyGroupsOption, int keyGroups) {
        int p;
        try {
            p = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 1 || p > keyGroups) {
            throw new InvalidJobException("option --parallelism " + op + "=" + value + " is not a whole number from 1 to "
                    + keyGroups + " (--" + keyGroupsOption + ", the number of key groups)");
        }
        return p;
    }

    static Map<String, String> describe() {
        return Map.of("wordcount", "sentences -> split -> keyBy word -> count -> sink",
                "chain", "source -> map1..mapN (each with --stage-cost) -> sink");
    }
}
