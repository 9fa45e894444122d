package dev.flowscale.engine.job;

import dev.flowscale.engine.api.InvalidJobException;

/**
 * A user's streaming job: declares its dataflow from its arguments. The runner ({@code
 * flowscale-engine run --job-jar my-job.jar --job-class com.example.MyJob ...}) creates the class
 * through its public no-argument constructor, calls {@link #build} once, and runs the returned job
 * with the whole runner protocol: metrics, control API, readiness, checkpoints, savepoints,
 * rescaling and linger.
 *
 * <p>Give every operator a stable id (the first argument of {@code source}, {@code map}, {@code
 * process}...): a savepoint's state is restored by operator id, so renaming an operator drops its
 * state. The runner sets the parallelism ({@code --parallelism op=p}) and the number of key groups
 * ({@code --key-groups}) over what {@code build} declares.
 */
@FunctionalInterface
public interface StreamingJob {

    /**
     * Declares the job.
     *
     * @param arguments the job's own options (those that are not the runner's); read each with its
     *     checks, so a missing or bad value fails before the job starts, naming the option
     * @return the job, not yet built or started
     * @throws InvalidJobException naming the option or operator at fault
     */
    JobBuilder build(JobArguments arguments);
}
