package dev.flowscale.engine.testing;

import dev.flowscale.engine.state.OperatorStateStore;
import java.util.List;
import java.util.Map;

/**
 * The state of one harnessed instance, encoded as a checkpoint encodes it: keyed state per key
 * group (so it can be restored into instances of another parallelism, each taking the key groups it
 * owns) and operator list state per list.
 *
 * @param instanceIndex the instance it was taken from
 * @param keyGroups the number of key groups
 * @param blocks the encoded block of each key group the instance owned
 * @param listModes how each operator list is redistributed (split round robin, or union)
 * @param lists the encoded elements of each operator list
 */
public record HarnessSnapshot(
        int instanceIndex,
        int keyGroups,
        Map<Integer, byte[]> blocks,
        Map<String, OperatorStateStore.Mode> listModes,
        Map<String, List<byte[]>> lists) {
    public HarnessSnapshot {
        blocks = Map.copyOf(blocks);
        listModes = Map.copyOf(listModes);
        lists = Map.copyOf(lists);
    }
}
