package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.OperatorStateStore;
import java.util.List;

/**
 * An instance's watermark in its snapshots: a union list, so that after a rescale every new
 * instance sees the watermarks of all old ones and starts from their minimum (a watermark that was
 * true for every old instance is true for each new one).
 */
final class WatermarkState {
    static final StateDescriptor<Long> WATERMARK =
            StateDescriptor.list("__flowscale.watermark", Long.class);

    private final ListState<Long> list;

    WatermarkState(OperatorStateStore store) {
        this.list = store.list(WATERMARK, OperatorStateStore.Mode.UNION);
    }

    /** The minimum of the restored watermarks; {@link Long#MIN_VALUE} for a fresh start. */
    long restored() {
        List<Long> all = list.get();
        return all.isEmpty()
                ? Long.MIN_VALUE
                : all.stream().mapToLong(Long::longValue).min().orElseThrow();
    }

    /** Records this instance's watermark just before a snapshot of its state is written. */
    void save(long watermark) {
        list.update(List.of(watermark));
    }
}
