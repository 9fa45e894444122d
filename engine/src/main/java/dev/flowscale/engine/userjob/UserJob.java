package dev.flowscale.engine.userjob;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.job.JobArguments;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.StreamingJob;
import java.io.IOException;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A user's {@link StreamingJob}, loaded by {@link UserJobLoader}, with the class loader its classes
 * come from. Keep it open while the job runs (its classes load lazily), close it after.
 */
public final class UserJob implements AutoCloseable {
    private final StreamingJob job;
    private final ClassLoader classLoader;

    UserJob(StreamingJob job, ClassLoader classLoader) {
        this.job = job;
        this.classLoader = classLoader;
    }

    /** The loader the job's own classes come from; set it as the threads' context class loader. */
    public ClassLoader classLoader() {
        return classLoader;
    }

    public String className() {
        return job.getClass().getName();
    }

    /**
     * Declares the job from its own options; an option it never read is refused, naming it and the
     * options the job does read.
     *
     * @throws InvalidJobException naming the option, or the class whose {@code build} failed
     */
    public JobBuilder build(Map<String, String> options) {
        JobArguments arguments = JobArguments.of(options);
        JobBuilder builder = withContextLoader(() -> job.build(arguments));
        if (builder == null) {
            throw new InvalidJobException(
                    "job class "
                            + className()
                            + " returned no job from build; return the"
                            + " JobBuilder it declared");
        }
        if (!arguments.unread().isEmpty()) {
            String unknown = arguments.unread().iterator().next();
            throw new InvalidJobException(
                    "unknown option --"
                            + unknown
                            + " for job class "
                            + className()
                            + "; the job reads "
                            + (arguments.known().isEmpty()
                                    ? "no options"
                                    : arguments.known().stream()
                                            .map(n -> "--" + n)
                                            .collect(Collectors.joining(", ")))
                            + " and the runner's options are in --help");
        }
        return builder;
    }

    private JobBuilder withContextLoader(Supplier<JobBuilder> build) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(classLoader);
        try {
            return build.get();
        } catch (EngineException e) {
            throw e;
        } catch (RuntimeException | LinkageError e) {
            throw new InvalidJobException(
                    "job class " + className() + " failed to declare its job: " + e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Closes the job's jars (a job from the engine's class path has none). */
    @Override
    public void close() {
        if (classLoader instanceof URLClassLoader own) {
            try {
                own.close();
            } catch (IOException e) {
                throw new EngineException(
                        "cannot close the jars of job class " + className() + ": " + e.getMessage(),
                        e);
            }
        }
    }
}
