package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.StateBackendConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The state of a rescale inside this process, built from the tasks' {@link HandOff captures}
 * instead of files: on the heap every key group goes to its new owner in memory (the owner takes a
 * copy when it opens, {@link RestoredState.InstanceRestore#restoreInto}); on RocksDB each new
 * instance gets a store made from the stopped stores before the run starts ({@link
 * RocksDbHandOver}); operator lists and splits are redistributed exactly as a restore from the
 * savepoint would. The savepoint is written from the same captures while the new run works; {@code
 * durable} completes when it is.
 */
public final class HandOverRestore {
    private HandOverRestore() {}

    /**
     * @param savepoint the directory the savepoint is being written to
     * @param checkpointId the hand-over barrier's id
     * @param graph the job at its new parallelism
     * @param captured one capture per task of the stopped run
     * @param durable completes once the savepoint is complete (fails if it is not written)
     * @param backend the job's state backend: where the new instances' RocksDB stores go
     */
    public static RestoredState restore(
            Path savepoint,
            long checkpointId,
            JobGraph graph,
            List<HandOff> captured,
            CompletableFuture<?> durable,
            StateBackendConfig backend) {
        RestoredState restored = new RestoredState(savepoint, checkpointId, durable);
        Map<String, List<HandOff>> byOperator = new LinkedHashMap<>();
        captured.stream()
                .sorted(Comparator.comparingInt(HandOff::instance))
                .forEach(
                        h ->
                                byOperator
                                        .computeIfAbsent(h.operatorId(), k -> new ArrayList<>())
                                        .add(h));
        int kept = 0;
        int moved = 0;
        for (Map.Entry<String, List<HandOff>> operator : byOperator.entrySet()) {
            OperatorNode node = graph.operator(operator.getKey());
            RestoredState.InstanceRestore[] targets =
                    restored.create(node.id(), node.parallelism());
            if (onRocksDb(operator.getValue())) {
                RocksDbHandOver.Counts counts =
                        prepareOrClose(
                                restored, node.id(), targets, operator.getValue(), graph, backend);
                kept += counts.kept();
                moved += counts.copied();
            } else {
                for (HandOff h : operator.getValue()) {
                    int stayed = handKeyGroups(h, targets, graph.keyGroups());
                    kept += stayed;
                    moved += h.keyed() == null ? 0 : h.keyed().keyGroupRange().size() - stayed;
                }
            }
            redistribute(savepoint, node, targets, operator.getValue());
        }
        restored.handedOver(kept, moved);
        return restored;
    }

    private static boolean onRocksDb(List<HandOff> captured) {
        return captured.stream().anyMatch(h -> h.keyed() != null && h.keyed().store() != null);
    }

    /** Prepares an operator's RocksDB stores; on failure closes those of earlier operators too. */
    private static RocksDbHandOver.Counts prepareOrClose(
            RestoredState restored,
            String operatorId,
            RestoredState.InstanceRestore[] targets,
            List<HandOff> captured,
            JobGraph graph,
            StateBackendConfig backend) {
        try {
            return RocksDbHandOver.prepare(
                    operatorId, targets, captured, graph.keyGroups(), backend);
        } catch (RuntimeException e) {
            restored.closePreparedStores();
            throw e;
        }
    }

    /** Gives each key group of {@code h} to its new owner; returns how many keep their index. */
    private static int handKeyGroups(
            HandOff h, RestoredState.InstanceRestore[] targets, int keyGroups) {
        if (h.keyed() == null) {
            return 0;
        }
        KeyGroupRange range = h.keyed().keyGroupRange();
        int stayed = 0;
        for (int group = range.start(); group <= range.endInclusive(); group++) {
            int owner = KeyGroups.operatorIndexFor(group, keyGroups, targets.length);
            targets[owner].handed.put(group, h.keyed());
            stayed += owner == h.instance() ? 1 : 0;
        }
        return stayed;
    }

    private static void redistribute(
            Path savepoint,
            OperatorNode node,
            RestoredState.InstanceRestore[] targets,
            List<HandOff> captured) {
        Map<String, OperatorStateStore.Mode> modes = new LinkedHashMap<>();
        Map<String, List<byte[]>> lists = new LinkedHashMap<>();
        List<byte[]> splits = new ArrayList<>();
        for (HandOff h : captured) {
            for (InstanceStateFile.EncodedList list : h.lists()) {
                modes.put(list.name(), list.mode());
                lists.computeIfAbsent(list.name(), k -> new ArrayList<>()).addAll(list.elements());
            }
            splits.addAll(h.splits());
        }
        SnapshotReader.distributeLists(targets, modes, lists);
        if (node.kind().isSource() && !splits.isEmpty()) {
            SnapshotReader.distributeSplits(savepoint, node, targets, splits);
        }
    }
}
