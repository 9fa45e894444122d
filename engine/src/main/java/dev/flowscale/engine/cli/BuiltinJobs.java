package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.examples.CostChain;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.source.GeneratorSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.LongFunction;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one catalogue of example jobs that the runner and {@code ./flowscale} run by name, configured
 * from {@link JobOptions}.
 */
public final class BuiltinJobs {
    /** Each job's shape, by name. */
    public static final Map<String, String> SHAPES = shapes();

    public static final List<String> NAMES = List.copyOf(SHAPES.keySet());

    private BuiltinJobs() {}

    /**
     * The engine's jobs with event time ({@link EventTimeJobs}) and jobs added by modules on the
     * class path (the Kafka word count, for one), by name.
     */
    private static final Map<String, BuiltinJob> PLUGGED = plugged();

    private static Map<String, String> shapes() {
        Map<String, String> shapes = new LinkedHashMap<>();
        shapes.put("wordcount", "sentences -> split -> keyBy word -> count -> sink");
        shapes.put("chain", "source -> map1..mapN (each with --stage-cost) -> sink");
        plugged().forEach((name, job) -> shapes.put(name, job.shape()));
        return shapes;
    }

    private static Map<String, BuiltinJob> plugged() {
        Map<String, BuiltinJob> jobs = new LinkedHashMap<>();
        EventTimeJobs.ALL.forEach(job -> jobs.put(job.name(), job));
        ServiceLoader.load(BuiltinJob.class, BuiltinJobs.class.getClassLoader())
                .forEach(job -> jobs.put(job.name(), job));
        return jobs;
    }

    /**
     * The job {@code name} configured from {@code options}; every value is checked (parallelism
     * against the key groups, options of the other job refused) before anything starts.
     *
     * @param idleAtLimit after {@code --limit} records the source idles (so the job can still be
     *     rescaled) instead of finishing
     */
    public static JobGraph build(String name, JobOptions options, boolean idleAtLimit) {
        checkJobOptions(name, options);
        JobBuilder job =
                switch (name) {
                    case "wordcount" -> wordCount(options, idleAtLimit);
                    case "chain" -> chain(options, idleAtLimit);
                    default -> plugged(name).build(options, idleAtLimit);
                };
        job.keyGroups(options.keyGroups());
        configure(job, options, options.keyGroups());
        return job.build();
    }

    private static BuiltinJob plugged(String name) {
        BuiltinJob job = PLUGGED.get(name);
        if (job == null) {
            throw new InvalidJobException("unknown job '" + name + "'; built-in jobs are " + NAMES);
        }
        return job;
    }

    /**
     * Applies {@code --parallelism} (each checked against the job's key groups) and {@code --cost}
     * to {@code job}.
     */
    static void configure(JobBuilder job, JobOptions options, int keyGroups) {
        options.parallelism.forEach((op, p) -> job.parallelism(op, parallelism(op, p, keyGroups)));
        options.cost.forEach(job::cost);
    }

    /** Options of one built-in job are refused for the other, rather than silently ignored. */
    private static void checkJobOptions(String job, JobOptions options) {
        onlyFor(job, "chain", "--stages", options.stages);
        onlyFor(job, "chain", "--stage-cost", options.stageCost);
        onlyFor(job, "wordcount", "--words-per-sentence", options.wordsPerSentence);
        onlyFor(job, "wordcount", "--vocabulary", options.vocabulary);
        onlyFor(job, "kafka-wordcount", "--kafka-bootstrap-servers", options.kafkaBootstrapServers);
        onlyFor(job, "kafka-wordcount", "--kafka-topic", options.kafkaTopic);
        onlyFor(job, "kafka-wordcount", "--kafka-output-topic", options.kafkaOutputTopic);
        onlyFor(job, "kafka-wordcount", "--kafka-group-id", options.kafkaGroupId);
    }

    private static void onlyFor(String job, String owner, String option, Object value) {
        if (!job.equals(owner) && value != null) {
            throw new InvalidJobException(
                    "option " + option + " applies to job " + owner + " only, not " + job);
        }
    }

    private static JobBuilder wordCount(JobOptions options, boolean idleAtLimit) {
        SentenceGenerator generator =
                new SentenceGenerator(
                        or(options.wordsPerSentence, 10), or(options.vocabulary, 10_000), 42L);
        return WordCount.build(
                "wordcount", source(options, generator::sentence, idleAtLimit), Sinks.counting());
    }

    private static JobBuilder chain(JobOptions options, boolean idleAtLimit) {
        SyntheticCost cost =
                options.stageCost == null ? SyntheticCost.parse("cpu:20us") : options.stageCost;
        List<CostChain.Stage> stages = CostChain.uniform(or(options.stages, 3), cost);
        return CostChain.build(
                "chain", source(options, seq -> seq, idleAtLimit), stages, Sinks.counting());
    }

    /** A replayable generator at --rate; with --limit it stops after that many records. */
    static <T> GeneratorSource<T> source(
            JobOptions options, LongFunction<T> recordOf, boolean idleAtLimit) {
        long limit = options.limit == null ? Long.MAX_VALUE : options.limit;
        return new GeneratorSource<>(options.rate, recordOf, limit, idleAtLimit);
    }

    private static int or(Integer given, int fallback) {
        return given == null ? fallback : given;
    }

    private static int parallelism(String op, int p, int keyGroups) {
        if (p < 1 || p > keyGroups) {
            throw new InvalidJobException(
                    "option --parallelism "
                            + op
                            + "="
                            + p
                            + " is not a whole number from 1 to "
                            + keyGroups
                            + " (--key-groups: an operator has at most one instance per key group)");
        }
        return p;
    }

    /** The job names, for completion and help. */
    public static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return new ArrayList<>(NAMES).iterator();
        }
    }

    /** A job name, checked against the catalogue. */
    public static final class Name implements ITypeConverter<String> {
        @Override
        public String convert(String name) {
            if (!SHAPES.containsKey(name)) {
                throw new TypeConversionException(
                        "'"
                                + name
                                + "' is not a built-in job; use one of "
                                + String.join(", ", NAMES));
            }
            return name;
        }
    }
}
