package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One task's state captured at a hand-over barrier (a rescale inside this process): its keyed
 * backend as it stands (the task stops right after the barrier, so nothing changes it any more),
 * and its operator lists and source splits, encoded at the barrier (they are small). The next run
 * takes copies of the key groups ({@link HandOverRestore}); the savepoint file is written from this
 * capture afterwards ({@link #write}), so the rescale's pause does not include encoding the keyed
 * state.
 */
public final class HandOff {
    private final String operatorId;
    private final int instance;
    private final KeyedStateBackend keyed;
    private final List<InstanceStateFile.EncodedList> lists;
    private final List<byte[]> splits;

    private HandOff(
            String operatorId,
            int instance,
            KeyedStateBackend keyed,
            List<InstanceStateFile.EncodedList> lists,
            List<byte[]> splits) {
        this.operatorId = operatorId;
        this.instance = instance;
        this.keyed = keyed;
        this.lists = lists;
        this.splits = splits;
    }

    /**
     * Captures a task's state at its barrier: {@code keyed} (null for operators without keyed
     * state) by reference, the operator lists and splits encoded now.
     */
    public static HandOff capture(
            String operatorId,
            int instance,
            KeyedStateBackend keyed,
            OperatorStateStore operatorState,
            List<?> splits)
            throws IOException {
        return new HandOff(
                operatorId,
                instance,
                keyed,
                InstanceStateFile.encodeLists(operatorState),
                InstanceStateFile.encodeSplits(splits));
    }

    /** Writes the task's file of snapshot {@code identity} into {@code dir}. */
    public TaskStateHandle write(Path dir, SnapshotIdentity identity) throws IOException {
        return InstanceStateFile.write(
                dir, identity, operatorId, instance, keyed, lists, splits, true);
    }

    public String operatorId() {
        return operatorId;
    }

    public int instance() {
        return instance;
    }

    /** The captured keyed backend; null for an operator without keyed state. */
    public KeyedStateBackend keyed() {
        return keyed;
    }

    List<InstanceStateFile.EncodedList> lists() {
        return lists;
    }

    List<byte[]> splits() {
        return splits;
    }

    /** How errors name this task. */
    public String describe() {
        return "operator '" + operatorId + "' instance " + instance;
    }
}
