package dev.flowscale.engine.api;

/** What an operator instance knows about where it runs. */
public interface RuntimeContext {
    String jobName();

    String operatorId();

    int instanceIndex();

    int parallelism();

    int maxParallelism();
}
