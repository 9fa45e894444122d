package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorKind;
import dev.flowscale.engine.graph.OperatorNode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that a manifest describes a whole snapshot of a job graph before any file is read: every
 * operator of the job is there once, each with one entry per instance it had, every key group of a
 * keyed operator is held by exactly one instance, and only sources hold splits. (That each file
 * holds the key groups and splits its entry claims is checked as it is read.)
 */
final class ManifestVerifier {
    private final Path dir;
    private final JobGraph graph;

    ManifestVerifier(Path dir, JobGraph graph) {
        this.dir = dir;
        this.graph = graph;
    }

    void verify(SnapshotMetadata metadata) {
        checkKeyGroupCount(metadata);
        checkOperatorSet(metadata.operators());
        for (SnapshotMetadata.OperatorEntry entry : metadata.operators()) {
            checkInstances(entry);
            checkKeyGroups(entry, graph.operator(entry.id()));
        }
    }

    private void checkKeyGroupCount(SnapshotMetadata metadata) {
        if (metadata.keyGroups() != graph.keyGroups()) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " was taken with "
                            + metadata.keyGroups()
                            + " key groups"
                            + " but job '"
                            + graph.jobName()
                            + "' has "
                            + graph.keyGroups()
                            + "; the number of key groups cannot change: set keyGroups("
                            + metadata.keyGroups()
                            + ")");
        }
    }

    private void checkOperatorSet(List<SnapshotMetadata.OperatorEntry> operators) {
        List<String> ids = operators.stream().map(SnapshotMetadata.OperatorEntry::id).toList();
        List<String> unknown = ids.stream().filter(id -> graph.operator(id) == null).toList();
        if (!unknown.isEmpty()) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " has state for operators "
                            + unknown
                            + " that job '"
                            + graph.jobName()
                            + "' does not have (its operators are "
                            + graph.parallelism().keySet()
                            + "); the operator ids do not match: keep each operator's uid across versions");
        }
        Set<String> seen = new HashSet<>();
        ids.stream()
                .filter(id -> !seen.add(id))
                .findFirst()
                .ifPresent(
                        id -> {
                            throw corrupt("lists operator '" + id + "' twice");
                        });
        List<String> missing =
                graph.parallelism().keySet().stream().filter(id -> !seen.contains(id)).toList();
        if (!missing.isEmpty()) {
            throw corrupt(
                    "has no entry for operators "
                            + missing
                            + " of job '"
                            + graph.jobName()
                            + "'; every snapshot lists every operator, so the manifest was edited or damaged");
        }
    }

    private void checkInstances(SnapshotMetadata.OperatorEntry entry) {
        if (entry.parallelism() < 1 || entry.instances().size() != entry.parallelism()) {
            throw corrupt(
                    "lists "
                            + entry.instances().size()
                            + " instance entries for operator '"
                            + entry.id()
                            + "', which ran at parallelism "
                            + entry.parallelism()
                            + "; an instance's state is missing");
        }
        boolean[] seen = new boolean[entry.parallelism()];
        for (TaskStateHandle handle : entry.instances()) {
            int i = handle.instance();
            if (!entry.id().equals(handle.operatorId()) || i < 0 || i >= seen.length || seen[i]) {
                throw corrupt(
                        "has a wrong instance entry for operator '"
                                + entry.id()
                                + "' (operator '"
                                + handle.operatorId()
                                + "', instance "
                                + i
                                + ", file "
                                + handle.file()
                                + ")");
            }
            seen[i] = true;
        }
    }

    private void checkKeyGroups(SnapshotMetadata.OperatorEntry entry, OperatorNode node) {
        boolean keyed = node.kind() == OperatorKind.KEYED_PROCESS;
        int[] holders = new int[graph.keyGroups()];
        for (TaskStateHandle handle : entry.instances()) {
            if (handle.splits() != 0 && !node.kind().isSource()) {
                throw corrupt(
                        "gives operator '"
                                + entry.id()
                                + "', which is not a source, "
                                + handle.splits()
                                + " splits");
            }
            if (handle.keyGroupEnd() < handle.keyGroupStart()) {
                continue;
            }
            if (!keyed || handle.keyGroupStart() < 0 || handle.keyGroupEnd() >= holders.length) {
                throw corrupt(
                        "gives operator '"
                                + entry.id()
                                + "' instance "
                                + handle.instance()
                                + " key groups "
                                + handle.keyGroupStart()
                                + ".."
                                + handle.keyGroupEnd()
                                + ", which it cannot hold");
            }
            for (int g = handle.keyGroupStart(); g <= handle.keyGroupEnd(); g++) {
                holders[g]++;
            }
        }
        for (int g = 0; keyed && g < holders.length; g++) {
            if (holders[g] != 1) {
                throw corrupt(
                        "has key group "
                                + g
                                + " of keyed operator '"
                                + entry.id()
                                + "' held by "
                                + holders[g]
                                + " instances; each key group must be held by exactly one");
            }
        }
    }

    private SnapshotException corrupt(String problem) {
        return new SnapshotException(
                "snapshot "
                        + dir
                        + " is corrupt: its manifest "
                        + problem
                        + "; restore an earlier snapshot");
    }
}
