package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The RocksDB part of a hand-over rescale: a store for each new instance, made from the stopped
 * instances' stores without writing a snapshot. Each new instance starts from a RocksDB checkpoint
 * of the stopped store whose key-group range overlaps its own the most (hard links: near-instant),
 * deletes the key groups outside its range (a range tombstone per state, since keys start with
 * their key group), and copies in only the key groups it gains from the other stopped stores. The
 * stopped stores stay untouched (the savepoint is written from them afterwards).
 */
final class RocksDbHandOver {
    private RocksDbHandOver() {}

    /** Key groups new instances start with from a checkpoint, and key groups copied in. */
    record Counts(int kept, int copied) {}

    /**
     * Prepares a store for every one of {@code targets} from {@code captured} (the stopped
     * instances of one operator, whose keyed backends are on RocksDB), in parallel; on failure the
     * stores made so far are closed and the failure thrown.
     */
    static Counts prepare(
            String operatorId,
            RestoredState.InstanceRestore[] targets,
            List<HandOff> captured,
            int keyGroups,
            StateBackendConfig config) {
        int[][] counts = new int[targets.length][];
        // A thread per new instance (up to 8), not the common pool: most of the work is RocksDB's
        // (flushes, file links, opening, writes) and waits on the disk as much as on a core.
        ExecutorService threads = Executors.newFixedThreadPool(Math.min(8, targets.length));
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < targets.length; i++) {
                int index = i;
                KeyGroupRange range = KeyGroups.rangeFor(i, keyGroups, targets.length);
                done.add(
                        threads.submit(
                                () ->
                                        counts[index] =
                                                prepareOne(
                                                        operatorId + "-" + index,
                                                        targets[index],
                                                        range,
                                                        captured,
                                                        config)));
            }
            awaitAll(done);
        } catch (RuntimeException e) {
            for (RestoredState.InstanceRestore target : targets) {
                target.closePrepared();
            }
            throw e;
        } finally {
            threads.shutdown();
        }
        int kept = 0;
        int copied = 0;
        for (int[] c : counts) {
            kept += c[0];
            copied += c[1];
        }
        return new Counts(kept, copied);
    }

    /** Waits for every preparation (so none still runs on failure); throws the first failure. */
    private static void awaitAll(List<Future<?>> done) {
        RuntimeException failure = null;
        for (Future<?> f : done) {
            try {
                f.get();
            } catch (ExecutionException e) {
                RuntimeException cause =
                        e.getCause() instanceof RuntimeException r
                                ? r
                                : new EngineException(
                                        "cannot prepare a RocksDB store: " + e.getCause(),
                                        e.getCause());
                failure = failure == null ? cause : failure;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = new EngineException("interrupted while preparing RocksDB stores", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static int[] prepareOne(
            String name,
            RestoredState.InstanceRestore target,
            KeyGroupRange range,
            List<HandOff> captured,
            StateBackendConfig config) {
        KeyedStateBackend base = best(range, captured);
        RocksDbKeyedStore store = base.store().checkpoints().copy(config, name);
        target.prepared = store;
        KeyGroupRange had = base.keyGroupRange();
        if (had.start() < range.start()) {
            store.deleteKeyGroups(had.start(), Math.min(had.endInclusive(), range.start() - 1));
        }
        if (had.endInclusive() > range.endInclusive()) {
            store.deleteKeyGroups(
                    Math.max(had.start(), range.endInclusive() + 1), had.endInclusive());
        }
        int copied = 0;
        for (HandOff h : captured) {
            KeyGroupRange gained = h.keyed().keyGroupRange().intersection(range);
            if (h.keyed() != base && !gained.isEmpty()) {
                store.copyKeyGroups(h.keyed().store(), gained.start(), gained.endInclusive());
                copied += gained.size();
            }
        }
        return new int[] {had.intersection(range).size(), copied};
    }

    /** The stopped backend whose range overlaps {@code range} the most (the first of equals). */
    private static KeyedStateBackend best(KeyGroupRange range, List<HandOff> captured) {
        KeyedStateBackend best = null;
        int most = -1;
        for (HandOff h : captured) {
            int overlap = h.keyed().keyGroupRange().intersection(range).size();
            if (overlap > most) {
                best = h.keyed();
                most = overlap;
            }
        }
        return best;
    }
}
