package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

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
    private final CompletableFuture<?> durable;
    private final boolean inMemory;

    RestoredState(Path path, long checkpointId) {
        this.path = path;
        this.checkpointId = checkpointId;
        this.durable = CompletableFuture.completedFuture(null);
        this.inMemory = false;
    }

    /** A hand-over: state taken from the previous run in memory while {@code path} is written. */
    RestoredState(Path path, long checkpointId, CompletableFuture<?> durable) {
        this.path = path;
        this.checkpointId = checkpointId;
        this.durable = durable;
        this.inMemory = true;
    }

    /** What one new instance restores. */
    public static final class InstanceRestore {
        final Map<Integer, List<KeyGroupBlocks.StateEntries>> keyGroups = new ConcurrentHashMap<>();
        final Map<String, OperatorList> operatorLists = new LinkedHashMap<>();
        List<Object> splits = new ArrayList<>();

        /**
         * In a hand-over, the key groups this instance takes from the previous run's backends (key
         * group → the backend that held it); filled before the task starts.
         */
        final Map<Integer, KeyedStateBackend> handed = new HashMap<>();

        private CompletableFuture<?> durable = CompletableFuture.completedFuture(null);

        /**
         * In a hand-over on RocksDB, the store made for this instance from the stopped run's stores
         * ({@link RocksDbHandOver}), holding exactly its key groups; null otherwise.
         */
        volatile RocksDbKeyedStore prepared;

        /**
         * The RocksDB store a hand-over prepared for this instance, holding exactly its key groups;
         * null otherwise (a fresh store is opened).
         */
        public RocksDbKeyedStore preparedStore() {
            return prepared;
        }

        /** Closes a prepared store that no task took (the run it was made for did not start). */
        void closePrepared() {
            RocksDbKeyedStore store = prepared;
            prepared = null;
            if (store != null) {
                store.close();
            }
        }

        /** The key groups read from the snapshot, decoded. */
        public Map<Integer, List<KeyGroupBlocks.StateEntries>> keyGroups() {
            return keyGroups;
        }

        /**
         * Loads this instance's keyed state into {@code backend}: key groups handed over in memory
         * are copied from the stopped run's backends, the others come from the snapshot (a prepared
         * RocksDB store already holds its key groups). Runs once, on the task's own thread.
         */
        public void restoreInto(KeyedStateBackend backend) {
            handed.forEach((group, from) -> backend.adoptCopy(from, group));
            KeyGroupBlocks.restoreDecoded(backend, keyGroups);
            handed.clear();
            keyGroups.clear();
        }

        /**
         * Waits until the snapshot this instance restores is durable: at once for a snapshot read
         * from storage; in a hand-over, until its savepoint is written. A function that commits
         * what a restored snapshot prepared (a transactional sink) must wait, or a crash before the
         * savepoint is complete would replay records whose output it already committed.
         */
        public void awaitDurable() throws InterruptedException {
            try {
                durable.get();
            } catch (ExecutionException e) {
                throw new SnapshotException(
                        "the savepoint of the rescale this instance restores from was not"
                                + " written: "
                                + e.getCause().getMessage(),
                        e.getCause());
            }
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

    /**
     * Whether this state was handed over in memory by a rescale (its savepoint may still be being
     * written) rather than read from a complete snapshot.
     */
    public boolean inMemory() {
        return inMemory;
    }

    /** Counts of a hand-over: key groups that keep their instance index, and those that move. */
    void handedOver(int keptGroups, int movedGroups) {
        kept = keptGroups;
        read = movedGroups;
    }

    /** The state of one new instance; null if the snapshot has nothing for the operator. */
    public InstanceRestore instance(String operatorId, int index) {
        InstanceRestore[] instances = operators.get(operatorId);
        return instances == null ? null : instances[index];
    }

    /**
     * Key groups that stay where they were in a hand-over rescale: on the heap those whose instance
     * index does not change, on RocksDB those a new instance's store starts with (not copied).
     */
    public int keyGroupsKept() {
        return kept;
    }

    /**
     * Key groups that change owner: decoded from the snapshot's files, or in a hand-over taken by
     * their new owner from the previous run (heap: in memory; RocksDB: copied between stores).
     */
    public int keyGroupsRead() {
        return read;
    }

    /** Counts the key groups once read, before tasks take them over. */
    void countKeyGroups() {
        read =
                operators.values().stream()
                        .flatMap(Arrays::stream)
                        .mapToInt(i -> i.keyGroups.size())
                        .sum();
    }

    /**
     * Closes the RocksDB stores a hand-over prepared for this state's instances: for a run that
     * could not start on it.
     */
    public void closePreparedStores() {
        operators.values().stream().flatMap(Arrays::stream).forEach(InstanceRestore::closePrepared);
    }

    InstanceRestore[] create(String operatorId, int parallelism) {
        InstanceRestore[] instances = new InstanceRestore[parallelism];
        for (int i = 0; i < parallelism; i++) {
            instances[i] = new InstanceRestore();
            instances[i].durable = durable;
        }
        operators.put(operatorId, instances);
        return instances;
    }
}
