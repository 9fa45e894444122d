package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A snapshot read back and already redistributed for the parallelism of the job being started: for
 * each operator and new instance, the key-group blocks it owns, its share of the operator list
 * state and of the source splits.
 */
public final class RestoredState {
    private final Path path;
    private final long checkpointId;
    private final Map<String, InstanceRestore[]> operators = new HashMap<>();
    private int kept;
    private int read;
    private final Set<KeyedStateBackend> keptBackends = new HashSet<>();

    RestoredState(Path path, long checkpointId) {
        this.path = path;
        this.checkpointId = checkpointId;
    }

    /** What one new instance restores. */
    public static final class InstanceRestore {
        final Map<Integer, List<KeyGroupBlocks.StateEntries>> keyGroups = new ConcurrentHashMap<>();
        final Set<Integer> retained = ConcurrentHashMap.newKeySet();
        final Map<String, OperatorList> operatorLists = new LinkedHashMap<>();
        List<Object> splits = new ArrayList<>();

        /** The instance of the same index before a rescale in this process; null otherwise. */
        KeyedStateBackend previous;

        /**
         * The RocksDB store this instance keeps from before a rescale in this process, holding the
         * key groups it keeps; null if it has none (a fresh store is opened).
         */
        public RocksDbKeyedStore previousStore() {
            return previous == null ? null : previous.store();
        }

        /** Whether this instance keeps {@code keyGroup} from before a rescale in this process. */
        boolean keeps(int keyGroup) {
            return previous != null && previous.keyGroupRange().contains(keyGroup);
        }

        /** The key groups read from the snapshot, decoded. */
        public Map<Integer, List<KeyGroupBlocks.StateEntries>> keyGroups() {
            return keyGroups;
        }

        /**
         * Loads this instance's keyed state into {@code backend}: key groups it kept from before a
         * rescale move over from its previous backend as they are, the others come from the
         * snapshot. Runs once, on the task's own thread.
         */
        public void restoreInto(KeyedStateBackend backend) {
            if (previous != null && previous.store() != null) {
                // The same RocksDB, kept: the key groups that left are cut out as ranges.
                backend.dropKeyGroupsOutsideRange(previous.keyGroupRange());
            } else if (previous != null) {
                retained.forEach(group -> backend.adopt(previous, group));
            }
            KeyGroupBlocks.restoreDecoded(backend, keyGroups);
            previous = null;
            retained.clear();
            keyGroups.clear();
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

    /** Key groups that new instances keep in memory from before a rescale (not read). */
    public int keyGroupsKept() {
        return kept;
    }

    /** Key groups decoded from the snapshot's files. */
    public int keyGroupsRead() {
        return read;
    }

    /** The backends of the previous run that new instances take over (in a rescale). */
    public Set<KeyedStateBackend> keptBackends() {
        return keptBackends;
    }

    /** Counts the key groups once read, before tasks take them over. */
    void countKeyGroups() {
        operators.values().stream()
                .flatMap(Arrays::stream)
                .filter(i -> i.previous != null)
                .forEach(i -> keptBackends.add(i.previous));
        kept =
                operators.values().stream()
                        .flatMap(Arrays::stream)
                        .mapToInt(i -> i.retained.size())
                        .sum();
        read =
                operators.values().stream()
                        .flatMap(Arrays::stream)
                        .mapToInt(i -> i.keyGroups.size())
                        .sum();
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
