package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;

/** Where an operator instance runs: job, operator, instance index and parallelism. */
record TaskContext(String jobName, String operatorId, int instanceIndex, int parallelism, int maxParallelism)
        implements RuntimeContext {

    KeyedRuntimeContext keyed(KeyedStateBackend backend) {
        TaskContext self = this;
        return new KeyedRuntimeContext() {
            @Override
            public <T> ValueState<T> valueState(StateDescriptor<T> descriptor) {
                return KeyedStates.value(backend, backend.table(check(descriptor, StateDescriptor.Kind.VALUE)));
            }

            @Override
            public <T> ListState<T> listState(StateDescriptor<T> descriptor) {
                return KeyedStates.list(backend, backend.table(check(descriptor, StateDescriptor.Kind.LIST)));
            }

            @Override
            public <K, V> MapState<K, V> mapState(StateDescriptor<V> descriptor) {
                return KeyedStates.map(backend, backend.table(check(descriptor, StateDescriptor.Kind.MAP)));
            }

            @Override
            public String jobName() {
                return self.jobName();
            }

            @Override
            public String operatorId() {
                return self.operatorId();
            }

            @Override
            public int instanceIndex() {
                return self.instanceIndex();
            }

            @Override
            public int parallelism() {
                return self.parallelism();
            }

            @Override
            public int maxParallelism() {
                return self.maxParallelism();
            }
        };
    }

    private <T> StateDescriptor<T> check(StateDescriptor<T> descriptor, StateDescriptor.Kind kind) {
        if (descriptor.kind() != kind) {
            throw new dev.flowscale.engine.api.EngineException("operator '" + operatorId + "': state '"
                    + descriptor.name() + "' is declared as " + descriptor.kind() + " but requested as " + kind
                    + "; use StateDescriptor." + kind.name().toLowerCase() + "(...)");
        }
        return descriptor;
    }

    String describe() {
        return "operator '" + operatorId + "' instance " + instanceIndex + "/" + parallelism;
    }
}
