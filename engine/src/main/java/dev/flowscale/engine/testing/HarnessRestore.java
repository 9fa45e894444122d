package dev.flowscale.engine.testing;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.checkpoint.KeyGroupBlocks;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Restores harness snapshots into one new instance as a restore from a checkpoint does: the key
 * groups it owns, and of each operator list, every element (union) or those whose position modulo
 * the parallelism is its index (split), the lists of the old instances concatenated in instance
 * order.
 */
final class HarnessRestore {
    private HarnessRestore() {}

    static void into(
            KeyedStateBackend backend,
            OperatorStateStore store,
            List<HarnessSnapshot> snapshots,
            int instanceIndex,
            int parallelism) {
        List<HarnessSnapshot> ordered =
                snapshots.stream()
                        .sorted(Comparator.comparingInt(HarnessSnapshot::instanceIndex))
                        .toList();
        Map<Integer, byte[]> owned = new HashMap<>();
        for (HarnessSnapshot snapshot : ordered) {
            if (snapshot.keyGroups() != backend.keyGroups()) {
                throw new InvalidJobException(
                        "a snapshot of "
                                + snapshot.keyGroups()
                                + " key groups cannot be"
                                + " restored into "
                                + backend.keyGroups()
                                + "; keep the number of key groups");
            }
            snapshot.blocks()
                    .forEach(
                            (group, block) -> {
                                if (backend.keyGroupRange().contains(group)) {
                                    owned.put(group, block);
                                }
                            });
        }
        KeyGroupBlocks.restoreInto(backend, owned, null);
        Map<String, List<byte[]>> lists = new HashMap<>();
        Map<String, OperatorStateStore.Mode> modes = new HashMap<>();
        for (HarnessSnapshot snapshot : ordered) {
            snapshot.lists()
                    .forEach(
                            (name, elements) ->
                                    lists.computeIfAbsent(name, n -> new ArrayList<>())
                                            .addAll(elements));
            modes.putAll(snapshot.listModes());
        }
        lists.forEach(
                (name, elements) -> {
                    OperatorStateStore.Mode mode = modes.get(name);
                    List<byte[]> share = new ArrayList<>();
                    for (int e = 0; e < elements.size(); e++) {
                        if (mode == OperatorStateStore.Mode.UNION
                                || e % parallelism == instanceIndex) {
                            share.add(elements.get(e));
                        }
                    }
                    store.restore(name, mode, share);
                });
    }
}
