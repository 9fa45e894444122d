package dev.flowscale.cli;

import dev.flowscale.engine.cli.OptionValues;
import dev.flowscale.flink.demo.FlinkWordCount;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The Flink word count's load and costs, as {@code demo --engine flink} and {@code flink-cluster}
 * take them.
 */
final class FlinkWordCountOptions {
    @Option(
            names = "--rate",
            paramLabel = "N",
            defaultValue = "200",
            description =
                    "Sentences per second the source owes (5 words each; default ${DEFAULT-VALUE}).")
    double rate;

    @Option(
            names = "--split-cost",
            paramLabel = "D",
            defaultValue = "6ms",
            converter = OptionValues.PositiveDuration.class,
            description = "Split blocks this long per sentence (default ${DEFAULT-VALUE}).")
    Duration splitCost;

    @Option(
            names = "--count-cost",
            paramLabel = "D",
            defaultValue = "2200us",
            converter = OptionValues.PositiveDuration.class,
            description = "Count blocks this long per word (default ${DEFAULT-VALUE}).")
    Duration countCost;

    /** The word count from 1/1/1, unbounded, at these options. */
    FlinkWordCount.Settings settings() {
        if (!(rate > 0)) {
            throw new CliException("option --rate is " + rate + "; give a rate above 0");
        }
        return new FlinkWordCount.Settings(
                "demo",
                System.currentTimeMillis(),
                rate,
                Long.MAX_VALUE / 2,
                splitCost.toNanos() / 1000,
                countCost.toNanos() / 1000,
                16);
    }
}
