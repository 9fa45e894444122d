package dev.flowscale.cli;

import dev.flowscale.engine.cli.OptionValues;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * What a session (an engine run or a Flink job) shows and decides over: live view interval, report,
 * metrics window.
 */
final class ViewOptions {
    @Option(
            names = "--print-interval",
            paramLabel = "D",
            defaultValue = "5s",
            converter = OptionValues.PrintInterval.class,
            description =
                    "How often to print operator rates (default ${DEFAULT-VALUE}, at least 100ms).")
    Duration printInterval;

    @Option(
            names = "--report",
            paramLabel = "FILE.html",
            description =
                    "Write a self-contained HTML report with charts at the end (also when the run fails);"
                            + " its folder must exist and be writable.")
    String report;

    @Option(
            names = "--window",
            paramLabel = "D",
            converter = OptionValues.PositiveDuration.class,
            description =
                    "Metrics window of a decision (default: the policy interval; a Flink job's metrics"
                            + " refresh every metrics.fetcher.update-interval, 10s by default).")
    Duration window;
}
