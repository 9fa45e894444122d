package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;

/**
 * The context the engine hands a keyed function's {@code open}, for code that drives a function
 * outside a running job (the test harness), so that it sees exactly the state objects a task would
 * give it.
 */
public final class UserContexts {
    private UserContexts() {}

    /** A keyed instance's context over its keyed state backend and its operator list state. */
    public static KeyedRuntimeContext keyed(
            String jobName,
            String operatorId,
            int instanceIndex,
            int parallelism,
            KeyedStateBackend backend,
            OperatorStateStore store) {
        TaskContext task =
                new TaskContext(
                        jobName, operatorId, instanceIndex, parallelism, backend.keyGroups(), null);
        return task.user(new TaskState(backend, store, null, null));
    }
}
