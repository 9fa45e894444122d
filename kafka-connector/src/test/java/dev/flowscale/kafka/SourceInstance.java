package dev.flowscale.kafka;

import dev.flowscale.engine.api.RuntimeContext;

/** Where a reader under test runs: one instance of a source operator. */
record SourceInstance(int instanceIndex, int parallelism) implements RuntimeContext {
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
