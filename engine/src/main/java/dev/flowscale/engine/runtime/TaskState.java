package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.KeyGroupBlocks;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import java.util.List;
import java.util.Map;

/**
 * The state one task owns: keyed state (keyed operators only), operator list state, and for a
 * restored source its splits (null for a fresh start).
 */
record TaskState(
        KeyedStateBackend keyed,
        OperatorStateStore operatorState,
        List<Object> restoredSplits,
        Map<Integer, byte[]> restoredKeyGroups) {

    /**
     * Loads the restored key groups into the keyed backend; runs on the task's own thread, in
     * parallel.
     */
    void restoreKeyedState() {
        if (keyed != null && restoredKeyGroups != null && !restoredKeyGroups.isEmpty()) {
            KeyGroupBlocks.restoreInto(keyed, restoredKeyGroups, null);
            restoredKeyGroups.clear();
        }
    }
}
