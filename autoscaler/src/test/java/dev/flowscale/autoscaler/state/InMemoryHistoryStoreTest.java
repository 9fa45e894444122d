package dev.flowscale.autoscaler.state;

import dev.flowscale.autoscaler.testing.HistoryStoreContract;
import dev.flowscale.autoscaler.testing.InMemoryHistoryStore;

/** The in-memory store (encoded through the codec) keeps the contract. */
class InMemoryHistoryStoreTest extends HistoryStoreContract {
    private final InMemoryHistoryStore store = new InMemoryHistoryStore();

    @Override
    protected HistoryStore store() {
        return store;
    }

    @Override
    protected HistoryStore nextProcess() {
        return store;
    }
}
