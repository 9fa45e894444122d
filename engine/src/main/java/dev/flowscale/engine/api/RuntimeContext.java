package dev.flowscale.engine.api;

/** What an operator instance knows about where it runs. */
public interface RuntimeContext {
    String jobName();

    String operatorId();

    int instanceIndex();

    int parallelism();

    /** The job's number of key groups (fixed for the job's life; parallelism never exceeds it). */
    int keyGroups();
}
