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

    /**
     * Jobs that connector jars add to the runner image's class path (the image runs {@code
     * EngineMain} over {@code /opt/flowscale/lib/*}); the engine jar alone does not know them.
     */
    public static final List<String> CONNECTORS = List.of("kafka-wordcount");

    /** What the runner image runs by name: the built-in jobs and the connectors' jobs. */
    public static final List<String> IN_RUNNER_IMAGE =
            java.util.stream.Stream.concat(BUILTIN.stream(), CONNECTORS.stream()).toList();

    private RunnerJobs() {}
}
