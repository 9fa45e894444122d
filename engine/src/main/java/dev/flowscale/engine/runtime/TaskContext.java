package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.LongValueState;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.OperatorRuntimeContext;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;
import dev.flowscale.engine.state.LongValues;
import dev.flowscale.engine.state.OperatorStateStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

/**
 * Where an operator instance runs: job, operator, instance index and parallelism, and the job's
 * meter registry (one that records nothing when the job exports no metrics).
 */
record TaskContext(
        String jobName,
        String operatorId,
        int instanceIndex,
        int parallelism,
        int keyGroups,
        MeterRegistry meterRegistry)
        implements RuntimeContext {

    TaskContext {
        meterRegistry = meterRegistry == null ? new CompositeMeterRegistry() : meterRegistry;
    }

    /** The context handed to user functions, with the task's state. */
    UserContext user(TaskState state) {
        return new UserContext(this, state.keyed(), state.operatorState());
    }

    String describe() {
        return "operator '" + operatorId + "' instance " + instanceIndex + "/" + parallelism;
    }

    /** Keyed state (for keyed operators) and operator list state, scoped to one instance. */
    record UserContext(TaskContext task, KeyedStateBackend backend, OperatorStateStore store)
            implements KeyedRuntimeContext, OperatorRuntimeContext {

        @Override
        public <T> ValueState<T> valueState(StateDescriptor<T> descriptor) {
            return KeyedStates.value(
                    keyed(), keyed().table(check(descriptor, StateDescriptor.Kind.VALUE)));
        }

        @Override
        public LongValueState longValueState(StateDescriptor<Long> descriptor) {
            if (descriptor.valueType() != Long.class) {
                throw new EngineException(
                        "operator '"
                                + task.operatorId()
                                + "': state '"
                                + descriptor.name()
                                + "' holds "
                                + descriptor.valueType().getName()
                                + ", not Long; declare it as StateDescriptor.value(name,"
                                + " Long.class) for a long value state");
            }
            return LongValues.of(
                    keyed(), keyed().table(check(descriptor, StateDescriptor.Kind.VALUE)));
        }

        @Override
        public <T> ListState<T> listState(StateDescriptor<T> descriptor) {
            return KeyedStates.list(
                    keyed(), keyed().table(check(descriptor, StateDescriptor.Kind.LIST)));
        }

        @Override
        public <K, V> MapState<K, V> mapState(StateDescriptor<V> descriptor) {
            return KeyedStates.map(
                    keyed(), keyed().table(check(descriptor, StateDescriptor.Kind.MAP)));
        }

        @Override
        public <T> ListState<T> operatorListState(StateDescriptor<T> descriptor) {
            return store.list(
                    check(descriptor, StateDescriptor.Kind.LIST), OperatorStateStore.Mode.SPLIT);
        }

        @Override
        public <T> ListState<T> unionListState(StateDescriptor<T> descriptor) {
            return store.list(
                    check(descriptor, StateDescriptor.Kind.LIST), OperatorStateStore.Mode.UNION);
        }

        private KeyedStateBackend keyed() {
            if (backend == null) {
                throw new EngineException(
                        task.describe()
                                + " is not keyed; keyed state needs keyBy(...).process(...)");
            }
            return backend;
        }

        private <T> StateDescriptor<T> check(
                StateDescriptor<T> descriptor, StateDescriptor.Kind kind) {
            if (descriptor.kind() != kind) {
                throw new EngineException(
                        "operator '"
                                + task.operatorId()
                                + "': state '"
                                + descriptor.name()
                                + "' is declared as "
                                + descriptor.kind()
                                + " but requested as "
                                + kind
                                + "; use StateDescriptor."
                                + kind.name().toLowerCase()
                                + "(...)");
            }
            StateTypeCheck.check(task.operatorId(), descriptor);
            return descriptor;
        }

        @Override
        public String jobName() {
            return task.jobName();
        }

        @Override
        public String operatorId() {
            return task.operatorId();
        }

        @Override
        public int instanceIndex() {
            return task.instanceIndex();
        }

        @Override
        public int parallelism() {
            return task.parallelism();
        }

        @Override
        public int keyGroups() {
            return task.keyGroups();
        }

        @Override
        public MeterRegistry meterRegistry() {
            return task.meterRegistry();
        }
    }
}
