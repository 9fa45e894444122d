package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.state.HistoryCodec;
import dev.flowscale.autoscaler.state.HistoryStore;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.Optional;

/**
 * A {@link HistoryStore} in memory that stores the encoded bytes, as a ConfigMap holds them, so
 * what a loop loads went through the codec; counts its saves.
 */
public final class InMemoryHistoryStore implements HistoryStore {
    private final HistoryCodec codec = new HistoryCodec(512 * 1024);
    private byte[] stored;
    private int saves;

    @Override
    public synchronized Optional<ScalingHistory> load() {
        return Optional.ofNullable(stored).map(codec::decode);
    }

    @Override
    public synchronized void save(ScalingHistory history) {
        stored = codec.encode(history);
        saves++;
    }

    public synchronized int saves() {
        return saves;
    }
}
