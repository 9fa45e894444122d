package dev.flowscale.cli;

import dev.flowscale.engine.cli.CommandLines;
import dev.flowscale.engine.cli.HelpOption;
import dev.flowscale.engine.cli.OptionValues;
import dev.flowscale.engine.cli.ShutdownHook;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.kafka.KafkaConnectorException;
import dev.flowscale.kafka.local.LocalKafkaBroker;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code flowscale demo --kafka}: a local Kafka broker (a child JVM, its data in a temporary folder
 * removed at the end, also on Ctrl-C), a producer writing sentences above what one count instance
 * handles, and {@code kafka-wordcount} under the autoscaler, which scales it from the consumer lag,
 * with {@code demo}'s live view.
 */
@Command(
        name = "demo-kafka",
        hidden = true,
        sortOptions = false,
        abbreviateSynopsis = true,
        description =
                "Start a local Kafka broker, produce sentences into it and run kafka-wordcount with the"
                        + " autoscaler (what demo --kafka runs). Other options go to run.")
final class KafkaDemoCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    static final String INPUT = "sentences";
    static final String OUTPUT = "counts";
    private static final Logger KAFKA_LOG = Logger.getLogger("org.apache.kafka");

    /**
     * The source's consumer closes without waiting at each rescale (a wait would only lengthen the
     * downtime), and its coordinator warns of the request it left pending, in two lines each time.
     */
    private static final Logger COORDINATOR_LOG =
            Logger.getLogger("org.apache.kafka.clients.consumer.internals.ConsumerCoordinator");

    /** kafka-wordcount on the demo's topics, checkpointed, at the demo's costs. */
    private static final List<String> JOB =
            List.of(
                    "kafka-wordcount",
                    "--kafka-topic",
                    INPUT,
                    "--kafka-output-topic",
                    OUTPUT,
                    "--kafka-group-id",
                    "flowscale-demo",
                    "--checkpoint-interval",
                    "2s",
                    // one instance: 100 sentences/s split, 100 words/s counted
                    "--cost",
                    "split=sleep:10ms,count=sleep:10ms");

    /** The run's arguments besides the broker's address; the options given after them win. */
    static final List<String> RUN_DEFAULTS = Demo.concat(JOB, Demo.SESSION);

    @Option(
            names = "--produce",
            paramLabel = "SPEC",
            defaultValue = "steps:0s=60,40s=120,80s=60",
            converter = OptionValues.Rate.class,
            description =
                    "Sentences/s the producer writes (5 words each), as run's --rate (default"
                            + " ${DEFAULT-VALUE}: one count instance handles 20).")
    RateProfile produce;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "8",
            description =
                    "Partitions of the input topic, the source's most instances (default ${DEFAULT-VALUE}).")
    int partitions;

    @Unmatched List<String> runOptions = new ArrayList<>();

    @Mixin HelpOption help;

    private final PrintStream out;
    private final PrintStream err;

    private KafkaDemoCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static CommandSpec spec(PrintStream out, PrintStream err) {
        return CommandSpec.forAnnotatedObject(new KafkaDemoCommand(out, err));
    }

    /**
     * The run command's arguments for a broker at {@code bootstrapServers}, data under {@code dir}.
     */
    List<String> runArguments(String bootstrapServers, Path dir) {
        List<String> args = new ArrayList<>(RUN_DEFAULTS);
        args.addAll(List.of("--savepoint-dir", dir.resolve("job").toString()));
        args.addAll(runOptions);
        args.addAll(List.of("--kafka-bootstrap-servers", bootstrapServers));
        return args;
    }

    @Override
    public Integer call() throws Exception {
        if (partitions < 1) {
            throw new CliException("option --partitions is " + partitions + "; give 1 or more");
        }
        // Bad options fail here, before a broker starts.
        RunCommand.parsed(runArguments("127.0.0.1:9092", Path.of("flowscale-data")));
        // The clients' INFO lines (every config value) would bury the live view.
        KAFKA_LOG.setLevel(Level.WARNING);
        COORDINATOR_LOG.setLevel(Level.SEVERE);
        Path dir = Files.createTempDirectory("flowscale-kafka-demo-");
        // On Ctrl-C the session stops its job and this thread stops the broker and removes dir;
        // the hook keeps the JVM up for that.
        try (ShutdownHook hook = ShutdownHook.install(() -> {}, Duration.ofSeconds(60))) {
            try {
                return runWithBroker(dir);
            } finally {
                deleteTree(dir);
            }
        }
    }

    private int runWithBroker(Path dir) {
        out.println(
                "demo --kafka: starting a Kafka broker (KRaft, a child JVM, data in " + dir + ")");
        // While the broker starts, the admin client warns at each connection attempt it retries.
        KAFKA_LOG.setLevel(Level.SEVERE);
        try (LocalKafkaBroker broker = startBroker(dir)) {
            createTopics(broker);
            KAFKA_LOG.setLevel(Level.WARNING);
            out.printf(
                    "broker %s; topic %s (%d partitions) -> kafka-wordcount -> topic %s;"
                            + " producing %s sentences/s of 5 words%n",
                    broker.bootstrapServers(), INPUT, partitions, OUTPUT, produceText());
            try (SentenceProducer producer =
                    new SentenceProducer(
                            broker.bootstrapServers(),
                            INPUT,
                            partitions,
                            produce,
                            Clock.systemUTC())) {
                producer.start();
                int code =
                        CommandLines.execute(
                                CommandLines.of(RunCommand.spec("demo", out), out, err),
                                runArguments(broker.bootstrapServers(), dir));
                out.printf(
                        "demo --kafka: produced %d sentences; stopping the broker%n",
                        producer.sent());
                return code;
            }
        }
    }

    /** --produce as given, or its default. */
    private String produceText() {
        OptionSpec option = spec.findOption("--produce");
        List<String> given = option.originalStringValues();
        return given.isEmpty() ? option.defaultValue() : given.get(given.size() - 1);
    }

    private static LocalKafkaBroker startBroker(Path dir) {
        try {
            return LocalKafkaBroker.start(dir);
        } catch (KafkaConnectorException e) {
            throw new CliException(
                    "demo --kafka could not start its local Kafka broker: " + e.getMessage());
        }
    }

    private void createTopics(LocalKafkaBroker broker) {
        try (Admin admin = broker.admin()) {
            admin.createTopics(
                            List.of(
                                    new NewTopic(INPUT, partitions, (short) 1),
                                    new NewTopic(OUTPUT, 2, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new CliException(
                    "demo --kafka could not create its topics on "
                            + broker.bootstrapServers()
                            + ": "
                            + e.getMessage());
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            System.err.println("demo --kafka: could not remove " + dir + ": " + e.getMessage());
        }
    }
}
