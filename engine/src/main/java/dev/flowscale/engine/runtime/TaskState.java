package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import java.util.List;

/**
 * The state one task owns: keyed state (keyed operators only), operator list state, and for a
 * restored source its splits (null for a fresh start); {@code restore} is what a restored task
 * loads into its keyed state when it opens (null for a fresh start).
 */
record TaskState(
        KeyedStateBackend keyed,
        OperatorStateStore operatorState,
        List<Object> restoredSplits,
        RestoredState.InstanceRestore restore) {

    /**
     * Loads the restored key groups into the keyed backend; runs on the task's own thread, in
     * parallel.
     */
    void restoreKeyedState() {
        if (keyed != null && restore != null) {
            restore.restoreInto(keyed);
        }
    }
}
