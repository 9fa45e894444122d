package dev.flowscale.engine.cli;

import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What every command that runs a built-in job takes (a picocli mixin of the runner's and
 * {@code ./flowscale}'s {@code run}): the job, its options, how long it runs and the metrics port.
 */
public final class RunOptions {
    @Parameters(index = "0", paramLabel = "<job>", converter = BuiltinJobs.Name.class,
            completionCandidates = BuiltinJobs.Names.class, description = "The job: ${COMPLETION-CANDIDATES}.")
    String job;
    @Mixin
    JobOptions jobOptions;
    @Option(names = "--duration", paramLabel = "D", converter = OptionValues.AnyDuration.class,
            description = "Stop after D (at most 8760h): stop the sources, let the records in flight drain for up"
                    + " to 5s, then cancel (default: run until Ctrl-C).")
    Duration duration;
    @Option(names = "--metrics-port", paramLabel = "N", converter = OptionValues.Port.class,
            description = "Serve Prometheus metrics on http://0.0.0.0:N/metrics (0..65535; 0 picks a free port).")
    Integer metricsPort;

    public String job() {
        return job;
    }

    public JobOptions jobOptions() {
        return jobOptions;
    }

    /** How long to run; null: until Ctrl-C. */
    public Duration duration() {
        return duration;
    }

    /** The metrics port; null: no metrics server. */
    public Integer metricsPort() {
        return metricsPort;
    }
}
