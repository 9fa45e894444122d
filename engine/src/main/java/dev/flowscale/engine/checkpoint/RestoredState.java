package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.OperatorStateStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot read back and already redistributed for the parallelism of the job being started: for
 * each operator and new instance, the key-group blocks it owns, its share of the operator list
 * state and of the source splits.
 */
public final class RestoredState {
    private final Path path;
    private final long checkpointId;
    private final Map<String, InstanceRestore[]> operators = new HashMap<>();

    RestoredState(Path path, long checkpointId) {
        this.path = path;
        this.checkpointId = checkpointId;
    }

    /** What one new instance restores. */
    public static final class InstanceRestore {
        final Map<Integer, byte[]> keyGroupBlocks = new HashMap<>();
        final Map<String, OperatorList> operatorLists = new LinkedHashMap<>();
        List<Object> splits = new ArrayList<>();

        public Map<Integer, byte[]> keyGroupBlocks() {
            return keyGroupBlocks;
        }

        public Map<String, OperatorList> operatorLists() {
            return operatorLists;
        }

        public List<Object> splits() {
            return splits;
        }
    }

    /** A list of encoded elements and how it is redistributed. */
    public record OperatorList(OperatorStateStore.Mode mode, List<byte[]> elements) {}

    public Path path() {
        return path;
    }

    public long checkpointId() {
        return checkpointId;
    }

    /** The state of one new instance; null if the snapshot has nothing for the operator. */
    public InstanceRestore instance(String operatorId, int index) {
        InstanceRestore[] instances = operators.get(operatorId);
        return instances == null ? null : instances[index];
    }

    InstanceRestore[] create(String operatorId, int parallelism) {
        InstanceRestore[] instances = new InstanceRestore[parallelism];
        for (int i = 0; i < parallelism; i++) {
            instances[i] = new InstanceRestore();
        }
        operators.put(operatorId, instances);
        return instances;
    }
}
