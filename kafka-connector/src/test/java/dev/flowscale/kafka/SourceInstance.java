package dev.flowscale.kafka;

import dev.flowscale.engine.api.RuntimeContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** Where a reader under test runs: one instance of a source operator, with its own meters. */
record SourceInstance(int instanceIndex, int parallelism, MeterRegistry meterRegistry)
        implements RuntimeContext {
    SourceInstance(int instanceIndex, int parallelism) {
        this(instanceIndex, parallelism, new SimpleMeterRegistry());
    }

    @Override
    public String jobName() {
        return "test-job";
    }

    @Override
    public String operatorId() {
        return "kafka";
    }

    @Override
    public int keyGroups() {
        return 128;
    }
}
