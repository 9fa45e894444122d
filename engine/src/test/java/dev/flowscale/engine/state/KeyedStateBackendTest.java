package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import org.junit.jupiter.api.Test;

class KeyedStateBackendTest {
    private static final StateDescriptor<Long> COUNT = StateDescriptor.value("count", Long.class);

    /** A word that counts how often it is hashed and compared. */
    private static final class Word {
        private final String text;
        int hashed;
        int compared;

        Word(String text) {
            this.text = text;
        }

        @Override
        public int hashCode() {
            hashed++;
            return text.hashCode();
        }

        @Override
        public boolean equals(Object other) {
            compared++;
            return other instanceof Word w && w.text.equals(text);
        }
    }

    @Test
    void aCounterReadAndWrittenHashesItsKeyOnceAndComparesItOnce() {
        KeyedStateBackend backend = new KeyedStateBackend("count", 128, new KeyGroupRange(0, 127));
        ValueState<Long> count = KeyedStates.value(backend, backend.table(COUNT));
        Word first = new Word("flow");
        increment(backend, count, first);
        Word again = new Word("flow");

        increment(backend, count, again);
        int hashed = again.hashed;
        int compared = first.compared + again.compared;

        assertThat(hashed).as("hashed for its key group and its entry alike").isOne();
        assertThat(compared).as("one probe for read and write").isOne();
        assertThat(count.value()).isEqualTo(2L);
    }

    @Test
    void aMapStateEntryReadThenWrittenProbesTheKeyOnce() {
        KeyedStateBackend backend =
                new KeyedStateBackend("windows", 128, new KeyGroupRange(0, 127));
        MapState<String, Long> windows =
                KeyedStates.map(
                        backend,
                        backend.table(StateDescriptor.map("windows", String.class, Long.class)));
        Word first = new Word("auction-7");
        backend.setCurrentKey(first);
        windows.put("10s", 1L);
        Word again = new Word("auction-7");
        backend.setCurrentKey(again);

        Long sum = windows.get("10s");
        windows.put("10s", sum + 1);
        int compared = first.compared + again.compared;

        assertThat(compared).as("one probe for the get and the put").isOne();
        assertThat(windows.get("10s")).isEqualTo(2L);
    }

    @Test
    void aRemovedKeyIsGoneFromItsKeyGroupAndOthersStay() {
        KeyedStateBackend backend = new KeyedStateBackend("count", 128, new KeyGroupRange(0, 127));
        var table = backend.table(COUNT);
        ValueState<Long> count = KeyedStates.value(backend, table);
        for (int i = 0; i < 1_000; i++) {
            increment(backend, count, new Word("w" + i));
        }
        backend.setCurrentKey(new Word("w7"));
        count.value();
        count.clear();

        int entries = 0;
        for (int g = 0; g < table.groupCount(); g++) {
            entries += table.group(g).size();
        }
        assertThat(entries).isEqualTo(999);
        assertThat(count.value()).isNull();
        backend.setCurrentKey(new Word("w8"));
        assertThat(count.value()).isEqualTo(1L);
    }

    private static void increment(KeyedStateBackend backend, ValueState<Long> count, Word key) {
        backend.setCurrentKey(key);
        Long current = count.value();
        count.update(current == null ? 1 : current + 1);
    }
}
