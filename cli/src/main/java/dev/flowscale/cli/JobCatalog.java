package dev.flowscale.cli;

import dev.flowscale.engine.cli.BuiltinJobs;
import dev.flowscale.engine.cli.CliOptions;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.examples.CostChain;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.source.SentenceGenerator;
import dev.flowscale.engine.state.KeyGroups;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The built-in jobs {@code flowscale run} knows, configured from options. */
final class JobCatalog {
    static final Map<String, String> JOBS = Map.of(
            "wordcount", "sentences -> split -> keyBy word -> count -> sink",
            "chain", "source -> map1..mapN (each with --stage-cost) -> sink");
    static final Set<String> OPTIONS = Set.of("rate", "parallelism", "cost", "words-per-sentence", "vocabulary",
            "stages", "stage-cost", "key-groups", "limit");

    private JobCatalog() {
    }

    static JobGraph build(String name, CliOptions options) {
        try {
            JobBuilder job = switch (name) {
                case "wordcount" -> wordCount(options);
                case "chain" -> chain(options);
                default -> throw new CliException("unknown job '" + name + "'; built-in jobs are " + JOBS.keySet());
            };
            BuiltinJobs.checkJobOptions(name, options);
            int keyGroups = keyGroups(options);
            job.maxParallelism(keyGroups);
            BuiltinJobs.configureOperators(job, options, "key-groups", keyGroups);
            return job.build();
        } catch (EngineException e) {
            throw new CliException(e.getMessage());
        }
    }

    private static JobBuilder wordCount(CliOptions options) {
        SentenceGenerator generator = new SentenceGenerator(options.integer("words-per-sentence", 10, 1),
                options.integer("vocabulary", 10_000, 1), 42L);
        return WordCount.build("wordcount", source(options, generator::sentence), Sinks.counting());
    }

    private static JobBuilder chain(CliOptions options) {
        String spec = options.text("stage-cost", "cpu:20us");
        SyntheticCost cost = BuiltinJobs.parse("stage-cost", spec, () -> SyntheticCost.parse(spec));
        List<CostChain.Stage> stages = CostChain.uniform(options.integer("stages", 3, 1), cost);
        return CostChain.build("chain", source(options, seq -> seq), stages, Sinks.counting());
    }

    /** The source's planned rate (records/s) at a time since the start, from --rate; null for "max". */
    static java.util.function.DoubleUnaryOperator plannedRate(CliOptions options) {
        String spec = options.text("rate", "1000");
        return spec.equals("max") ? null
                : BuiltinJobs.parse("rate", spec, () -> RateProfile.parse(spec))::rateAt;
    }

    /** A replayable generator at --rate; with --limit it stops after that many records (and idles). */
    private static <T> GeneratorSource<T> source(CliOptions options, java.util.function.LongFunction<T> recordOf) {
        String spec = options.text("rate", "1000");
        RateProfile rate = spec.equals("max") ? null : BuiltinJobs.parse("rate", spec, () -> RateProfile.parse(spec));
        long limit = options.has("limit") ? options.integer("limit", 0, 1) : Long.MAX_VALUE;
        return new GeneratorSource<>(rate, recordOf, limit, true);
    }

    /** --key-groups: the job's number of key groups, which bounds every parallelism. */
    static int keyGroups(CliOptions options) {
        return options.integer("key-groups", 128, 1, KeyGroups.UPPER_BOUND_MAX_PARALLELISM);
    }
}
