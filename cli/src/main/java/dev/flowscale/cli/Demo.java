package dev.flowscale.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The scripted demo: word count whose split and count operators cost 10 ms per sentence and 1 ms
 * per word (like calls to a remote service), with a source that steps from 200 to 600 sentences/s
 * at 40 s and back to 200 at 80 s. Both start at one instance, so within about two minutes the
 * autoscaler scales up, follows the step up, and scales down after it.
 */
final class Demo {
    /** The session of every demo: its length, policy settings and live view. */
    static final List<String> SESSION =
            List.of(
                    "--duration",
                    "120s",
                    "--policy-interval",
                    "8s",
                    "--warm-up",
                    "2s",
                    "--scale-down-delay",
                    "10s",
                    "--catch-up",
                    "20s",
                    "--print-interval",
                    "4s",
                    "--expected-downtime",
                    "2s");

    static final List<String> DEFAULTS =
            concat(
                    List.of(
                            "wordcount",
                            "--rate",
                            "steps:0s=200,40s=800,80s=200",
                            "--cost",
                            "split=sleep:10ms,count=sleep:1ms",
                            "--words-per-sentence",
                            "10",
                            // A demo run again tells the same story: it does not resume from
                            // the snapshot the last run left in flowscale-data (kept).
                            "--start-fresh"),
                    SESSION);

    static final String KAFKA = "--kafka";

    private Demo() {}

    static List<String> concat(List<String> first, List<String> second) {
        List<String> both = new ArrayList<>(first);
        both.addAll(second);
        return List.copyOf(both);
    }

    /** {@code demo}: the run command, whose arguments {@link #expand} prefixes with the demo's. */
    static CommandSpec spec(PrintStream out) {
        CommandSpec spec = RunCommand.spec("demo", out);
        spec.usageMessage()
                .description(
                        "Run word count whose source rate steps up, then down (~2 min), with the"
                                + " autoscaler.",
                        "The demo's arguments, which the options of run given after demo override: "
                                + String.join(" ", DEFAULTS),
                        "demo --engine flink: the same on a real Flink 2.3 word count, on a local"
                                + " Flink cluster in this process (see demo-flink --help).",
                        "demo --kafka: kafka-wordcount scaled from consumer lag, on a local Kafka"
                                + " broker it starts (see demo-kafka --help).");
        return spec;
    }

    /**
     * {@code demo ARGS} as {@code demo <the demo's options> ARGS} (a later option wins); {@code
     * demo --engine flink ARGS} as the Flink demo's command with ARGS; other commands as given.
     */
    static List<String> expand(List<String> args) {
        if (args.isEmpty() || !args.get(0).equals("demo")) {
            return args;
        }
        String engine = engine(args);
        args = withoutEngine(args);
        if (args.contains(KAFKA)) {
            return kafka(engine, args);
        }
        if (engine.equals("flink")) {
            List<String> flink = new ArrayList<>(List.of("demo-flink"));
            flink.addAll(args.subList(1, args.size()));
            return flink;
        }
        if (!engine.equals("embedded")) {
            throw new CliException(
                    "option --engine '" + engine + "' is not an engine; use embedded or flink");
        }
        List<String> expanded = new ArrayList<>(List.of("demo"));
        expanded.addAll(DEFAULTS);
        expanded.addAll(args.subList(1, args.size()));
        return expanded;
    }

    /**
     * {@code demo --kafka ARGS} as the Kafka demo's command with ARGS (the embedded engine only).
     */
    private static List<String> kafka(String engine, List<String> args) {
        if (!engine.equals("embedded")) {
            throw new CliException(
                    "option --kafka runs kafka-wordcount on the embedded engine; drop --engine "
                            + engine
                            + " or --kafka");
        }
        List<String> kafka = new ArrayList<>(List.of("demo-kafka"));
        args.subList(1, args.size()).stream().filter(a -> !a.equals(KAFKA)).forEach(kafka::add);
        return kafka;
    }

    /** The value of the last {@code --engine} (default embedded). */
    private static String engine(List<String> args) {
        String engine = "embedded";
        for (int i = 1; i < args.size(); i++) {
            if (args.get(i).equals("--engine") && i + 1 < args.size()) {
                engine = args.get(i + 1);
            } else if (args.get(i).startsWith("--engine=")) {
                engine = args.get(i).substring("--engine=".length());
            }
        }
        return engine;
    }

    private static List<String> withoutEngine(List<String> args) {
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--engine") && i + 1 < args.size()) {
                i++;
            } else if (!args.get(i).startsWith("--engine=")) {
                rest.add(args.get(i));
            }
        }
        return rest;
    }
}
