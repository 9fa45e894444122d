package dev.flowscale.cli;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.cli.BuiltinJobs;
import dev.flowscale.engine.cli.CliOptions;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.userjob.UserJob;
import dev.flowscale.engine.userjob.UserJobCommand;
import dev.flowscale.engine.userjob.UserJobLoader;
import java.util.Set;

/**
 * {@code flowscale run --job-jar J --job-class C}: a user's job (loaded by the engine's
 * {@link UserJobLoader}) under the autoscaler, with the options a built-in job takes from the
 * command ({@code --parallelism}, {@code --cost}, {@code --key-groups}); every other option that
 * is not the command's goes to the job.
 */
final class UserJobs {
    /** The command's options for a user job besides the run's (the job's own take the rest). */
    static final Set<String> OPTIONS = Set.of("parallelism", "cost", "key-groups", "job-jar", "job-class");

    private UserJobs() {
    }

    static UserJob load(CliOptions options) {
        return UserJobLoader.load(options.has("job-jar") ? options.text("job-jar", "") : null,
                options.text("job-class", null), UserJobs.class.getClassLoader());
    }

    /** The job as its class declares it, with --key-groups (default: the job's own), --parallelism and --cost. */
    static JobGraph build(UserJob job, UserJobCommand command, CliOptions options) {
        try {
            JobBuilder builder = job.build(command.jobOptions());
            int keyGroups = options.integer("key-groups", builder.maxParallelism(), 1,
                    KeyGroups.UPPER_BOUND_MAX_PARALLELISM);
            builder.maxParallelism(keyGroups);
            BuiltinJobs.configureOperators(builder, options, "key-groups", keyGroups);
            return builder.build();
        } catch (EngineException e) {
            throw new CliException(e.getMessage());
        }
    }
}
