package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.StateTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the keyed state in a snapshot exactly as a job would restore it, without running the job:
 * for tools, and for tests that prove state is complete after a rescale.
 */
public final class SnapshotInspector {
    private SnapshotInspector() {}

    /**
     * One map per instance of {@code operatorId} at the graph's parallelism, each holding the keys
     * (and values of {@code descriptor}) that instance would restore.
     */
    @SuppressWarnings("unchecked")
    public static <T> List<Map<Object, T>> keyedState(
            Path snapshot, JobGraph graph, String operatorId, StateDescriptor<T> descriptor) {
        RestoredState restored = SnapshotReader.read(snapshot, graph);
        OperatorNode node = graph.operator(operatorId);
        List<Map<Object, T>> result = new ArrayList<>();
        for (int i = 0; i < node.parallelism(); i++) {
            KeyedStateBackend backend =
                    new KeyedStateBackend(
                            operatorId,
                            graph.keyGroups(),
                            KeyGroups.rangeFor(i, graph.keyGroups(), node.parallelism()));
            RestoredState.InstanceRestore restore = restored.instance(operatorId, i);
            if (restore != null) {
                restore.restoreInto(backend);
            }
            StateTable table = backend.table(descriptor);
            Map<Object, T> entries = new HashMap<>();
            for (int g = 0; g < table.groupCount(); g++) {
                table.group(g).forEach((k, v) -> entries.put(k, (T) v));
            }
            result.add(entries);
        }
        return result;
    }

    /**
     * The positions of source {@code sourceId} in a snapshot: its splits over all instances at the
     * graph's parallelism, as the job would restore them.
     */
    public static List<Object> sourceSplits(Path snapshot, JobGraph graph, String sourceId) {
        RestoredState restored = SnapshotReader.read(snapshot, graph);
        List<Object> splits = new ArrayList<>();
        for (int i = 0; i < graph.operator(sourceId).parallelism(); i++) {
            RestoredState.InstanceRestore restore = restored.instance(sourceId, i);
            if (restore != null) {
                splits.addAll(restore.splits());
            }
        }
        return splits;
    }

    /** All keys and values of one keyed state, merged over the instances. */
    public static <T> Map<Object, T> mergedKeyedState(
            Path snapshot, JobGraph graph, String operatorId, StateDescriptor<T> descriptor) {
        Map<Object, T> merged = new HashMap<>();
        keyedState(snapshot, graph, operatorId, descriptor).forEach(merged::putAll);
        return merged;
    }
}
