package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.StateDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Operator list state survives its snapshot encoding: what is restored is what was added. */
class OperatorStateStoreTest {

    /**
     * A JSON-encoded element type, as a connector keeps (the Kafka sink's prepared transactions).
     */
    record Prepared(String id, long checkpoint, List<String> records) {}

    @Test
    void restoredElementsOfAListDecodeToTheElementsThatWereSnapshotted() {
        StateDescriptor<Prepared> descriptor = StateDescriptor.list("prepared", Prepared.class);
        OperatorStateStore before = new OperatorStateStore("sink");
        ListState<Prepared> list = before.list(descriptor, OperatorStateStore.Mode.SPLIT);
        list.add(new Prepared("tx-1", 3, List.of("a", "b")));
        list.add(new Prepared("tx-2", 4, List.of()));
        List<byte[]> snapshot = before.lists().get("prepared").encodedElements();

        OperatorStateStore after = new OperatorStateStore("sink");
        after.restore("prepared", OperatorStateStore.Mode.SPLIT, snapshot);

        assertThat(after.list(descriptor, OperatorStateStore.Mode.SPLIT).get())
                .containsExactly(
                        new Prepared("tx-1", 3, List.of("a", "b")),
                        new Prepared("tx-2", 4, List.of()));
    }

    @Test
    void restoredBuiltInElementsDecodeToo() {
        StateDescriptor<Long> descriptor = StateDescriptor.list("offsets", Long.class);
        OperatorStateStore before = new OperatorStateStore("src");
        before.list(descriptor, OperatorStateStore.Mode.UNION).update(List.of(7L, 9L));

        OperatorStateStore after = new OperatorStateStore("src");
        after.restore(
                "offsets",
                OperatorStateStore.Mode.UNION,
                before.lists().get("offsets").encodedElements());

        assertThat(after.list(descriptor, OperatorStateStore.Mode.UNION).get())
                .containsExactly(7L, 9L);
    }
}
