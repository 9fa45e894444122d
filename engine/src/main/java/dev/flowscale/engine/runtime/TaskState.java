package dev.flowscale.engine.runtime;

import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import java.util.List;

/**
 * The state one task owns: keyed state (keyed operators only), operator list state, and for a
 * restored source its splits (null for a fresh start).
 */
record TaskState(KeyedStateBackend keyed, OperatorStateStore operatorState, List<Object> restoredSplits) {
}
