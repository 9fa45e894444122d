package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.StateDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorStateStoreTest {
    private static final StateDescriptor<Long> SEEN = StateDescriptor.list("seen", Long.class);

    @Test
    void aRestoredListReadsBackTheElementsItsSnapshotEncoded() {
        OperatorStateStore before = new OperatorStateStore("op");
        ListState<Long> list = before.list(SEEN, OperatorStateStore.Mode.UNION);
        list.update(List.of(Long.MIN_VALUE, 7L, 1L << 40));
        List<byte[]> encoded = before.lists().get("seen").encodedElements();

        OperatorStateStore after = new OperatorStateStore("op");
        after.restore("seen", OperatorStateStore.Mode.UNION, encoded);
        assertThat(after.list(SEEN, OperatorStateStore.Mode.UNION).get())
                .containsExactly(Long.MIN_VALUE, 7L, 1L << 40);
    }
}
