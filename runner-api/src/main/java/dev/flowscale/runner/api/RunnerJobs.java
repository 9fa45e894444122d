package dev.flowscale.runner.api;

import java.util.List;

/**
 * The jobs a runner runs by name ({@code flowscale-engine run <name>}), part of the runner's
 * contract: a controller that starts runners (the Kubernetes operator's {@code spec.job.builtin})
 * checks a name against this list without loading the engine, whose catalogue of built-in jobs uses
 * it.
 */
public final class RunnerJobs {
    /** The built-in jobs' names. */
    public static final List<String> BUILTIN = List.of("wordcount", "chain");

    private RunnerJobs() {}
}
