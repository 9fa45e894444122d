package dev.flowscale.engine.api;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

/** What an operator instance knows about where it runs. */
public interface RuntimeContext {
    String jobName();

    String operatorId();

    int instanceIndex();

    int parallelism();

    /** The job's number of key groups (fixed for the job's life; parallelism never exceeds it). */
    int keyGroups();

    /**
     * Where the job's meters are registered, for a function's own meters (a Kafka source's lag per
     * topic): name them from the vocabulary ({@code dev.flowscale.runner.api.MetricName}), tag them
     * {@code job}, {@code operator} and {@code instance} as the engine's, and remove them when the
     * function closes, as a rescale replaces its instances. By default, and when the job exports no
     * metrics, a registry that records nothing.
     */
    default MeterRegistry meterRegistry() {
        return new CompositeMeterRegistry();
    }
}
