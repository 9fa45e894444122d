package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.userjob.UserJob;
import dev.flowscale.engine.userjob.UserJobLoader;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What every command that runs a job takes (a picocli mixin of the runner's and {@code
 * ./flowscale}'s {@code run}): a built-in job by name or a user's job from its jar, the job's
 * options, how long it runs and the metrics port.
 */
public final class RunOptions {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "<job>",
            converter = BuiltinJobs.Name.class,
            completionCandidates = BuiltinJobs.Names.class,
            description =
                    "A built-in job: ${COMPLETION-CANDIDATES}; or give --job-jar and --job-class.")
    String job;

    @Option(
            names = "--job-jar",
            paramLabel = "PATH",
            description =
                    "A user job's jar (or a folder of jars; several separated by :), loaded in its own class"
                            + " loader: its own libraries win over the engine's.")
    String jobJar;

    @Option(
            names = "--job-class",
            paramLabel = "CLASS",
            description =
                    "The class in --job-jar that implements dev.flowscale.engine.job.StreamingJob; every option"
                            + " this command does not know goes to that job, which refuses those it does not read.")
    String jobClass;

    @Mixin JobOptions jobOptions;

    @Option(
            names = "--duration",
            paramLabel = "D",
            converter = OptionValues.AnyDuration.class,
            description =
                    "Stop after D (at most 8760h): stop the sources, let the records in flight drain for up"
                            + " to 5s, then cancel (default: run until Ctrl-C).")
    Duration duration;

    @Option(
            names = "--metrics-port",
            paramLabel = "N",
            converter = OptionValues.Port.class,
            description =
                    "Serve Prometheus metrics on http://0.0.0.0:N/metrics (0..65535; 0 picks a free port).")
    Integer metricsPort;

    /**
     * A user job's own options (by name, without --), split from the command line by {@link
     * UserJobArgs}.
     */
    Map<String, String> userJobOptions = Map.of();

    /** The built-in job's name; null for a user's job. */
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

    /**
     * Whether this runs a user's job ({@code --job-jar} or {@code --job-class}) rather than a
     * built-in one.
     */
    public boolean userJob() {
        return jobJar != null || jobClass != null;
    }

    /**
     * The user's job loaded from its jar in its own class loader, or null for a built-in job; the
     * caller closes it when the run ends.
     */
    public UserJob loadUserJob() {
        if (!userJob()) {
            if (job == null) {
                throw new InvalidJobException(
                        "run needs a job name (built-in jobs are "
                                + BuiltinJobs.NAMES
                                + ") or --job-jar JAR --job-class CLASS");
            }
            return null;
        }
        if (job != null) {
            throw new InvalidJobException(
                    "run takes a built-in job or --job-jar/--job-class, not both; drop '"
                            + job
                            + "' to run the class "
                            + jobClass);
        }
        return UserJobLoader.load(jobJar, jobClass, RunOptions.class.getClassLoader());
    }

    /**
     * The job's graph, every value checked: a built-in job from its options, or the user's job as
     * its class builds it, with {@code --key-groups} (default: what the job declares), {@code
     * --parallelism} and {@code --cost} over it.
     *
     * @param userJob what {@link #loadUserJob()} returned
     * @param idleAtLimit a built-in job's source idles after {@code --limit} records instead of
     *     finishing
     */
    public JobGraph graph(UserJob userJob, boolean idleAtLimit) {
        if (userJob == null) {
            return BuiltinJobs.build(job, jobOptions, idleAtLimit);
        }
        JobBuilder builder = userJob.build(userJobOptions);
        int keyGroups = jobOptions.keyGroupsOr(builder.keyGroups());
        builder.keyGroups(keyGroups);
        BuiltinJobs.configure(builder, jobOptions, keyGroups);
        return builder.build();
    }
}
