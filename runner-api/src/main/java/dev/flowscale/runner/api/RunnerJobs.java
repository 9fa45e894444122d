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
    public static final List<String> BUILTIN =
            List.of(
                    "wordcount",
                    "chain",
                    "sensor-alerts",
                    "nexmark-q1",
                    "nexmark-q2",
                    "nexmark-q3",
                    "nexmark-q5",
                    "nexmark-q8",
                    "nexmark-q11");

    private RunnerJobs() {}
}
