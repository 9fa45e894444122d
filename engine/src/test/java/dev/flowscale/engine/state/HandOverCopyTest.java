package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A hand-over rescale gives the next run copies of the key groups while a savepoint is written from
 * the originals: nothing the next run does through its state reaches the originals.
 */
class HandOverCopyTest {
    private static final int KEY_GROUPS = 128;
    private static final StateDescriptor<String> NAME = StateDescriptor.value("name", String.class);
    private static final StateDescriptor<Counter> COUNTER =
            StateDescriptor.value("counter", Counter.class);
    private static final StateDescriptor<Long> SEEN = StateDescriptor.list("seen", Long.class);
    private static final StateDescriptor<Long> BY_DAY =
            StateDescriptor.map("byDay", String.class, Long.class);

    /** A value type whose instances change in place. */
    public static final class Counter {
        public long n;
    }

    @Test
    void changesThroughTheCopyLeaveTheOriginalAsItWas() {
        KeyedStateBackend original =
                new KeyedStateBackend("op", KEY_GROUPS, new KeyGroupRange(0, 63));
        String key = keyIn(original.keyGroupRange());
        original.setCurrentKey(key);
        KeyedStates.value(original, original.table(NAME)).update("before");
        Counter counter = new Counter();
        counter.n = 1;
        KeyedStates.value(original, original.table(COUNTER)).update(counter);
        KeyedStates.list(original, original.table(SEEN)).add(1L);
        KeyedStates.map(original, original.table(BY_DAY)).put("mon", 1L);

        KeyedStateBackend next = new KeyedStateBackend("op", KEY_GROUPS, new KeyGroupRange(0, 127));
        for (int group = 0; group <= 63; group++) {
            next.adoptCopy(original, group);
        }
        next.setCurrentKey(key);
        ValueState<Counter> nextCounter = KeyedStates.value(next, next.table(COUNTER));
        assertThat(nextCounter.value().n).as("the copy holds the value").isEqualTo(1);
        nextCounter.value().n = 99;
        KeyedStates.value(next, next.table(NAME)).update("after");
        ListState<Long> seen = KeyedStates.list(next, next.table(SEEN));
        seen.add(2L);
        MapState<String, Long> byDay = KeyedStates.map(next, next.table(BY_DAY));
        byDay.put("tue", 2L);

        assertThat(seen.get()).containsExactly(1L, 2L);
        assertThat(byDay.entries()).isEqualTo(Map.of("mon", 1L, "tue", 2L));
        original.setCurrentKey(key);
        assertThat(KeyedStates.value(original, original.table(NAME)).value()).isEqualTo("before");
        assertThat(KeyedStates.<Counter>value(original, original.table(COUNTER)).value().n)
                .isEqualTo(1);
        assertThat(KeyedStates.list(original, original.table(SEEN)).get()).isEqualTo(List.of(1L));
        assertThat(KeyedStates.map(original, original.table(BY_DAY)).entries())
                .isEqualTo(Map.of("mon", 1L));
    }

    @Test
    void valuesOfImmutableTypesAreSharedNotCopied() {
        KeyedStateBackend original =
                new KeyedStateBackend("op", KEY_GROUPS, new KeyGroupRange(0, 63));
        String key = keyIn(original.keyGroupRange());
        original.setCurrentKey(key);
        String value = new String("payload");
        KeyedStates.value(original, original.table(NAME)).update(value);

        KeyedStateBackend next = new KeyedStateBackend("op", KEY_GROUPS, new KeyGroupRange(0, 63));
        next.adoptCopy(original, KeyGroups.keyGroupFor(key, KEY_GROUPS));
        next.setCurrentKey(key);

        assertThat(KeyedStates.value(next, next.table(NAME)).value()).isSameAs(value);
        assertThat(StateCopies.immutable(Counter.class, 0)).isFalse();
        assertThat(StateCopies.immutable(Point.class, 0)).isTrue();
    }

    /** A record of immutable components is immutable. */
    record Point(long x, String label) {}

    private static String keyIn(KeyGroupRange range) {
        for (int i = 0; ; i++) {
            String key = "key-" + i;
            if (range.contains(KeyGroups.keyGroupFor(key, KEY_GROUPS))) {
                return key;
            }
        }
    }

    @Test
    void theHandOverCopiesAKeyGroupOnlyWhenTheNextRunFirstTouchesIt() {
        KeyedStateBackend original =
                new KeyedStateBackend("op", KEY_GROUPS, new KeyGroupRange(0, 63));
        String key = keyIn(original.keyGroupRange());
        int group = KeyGroups.keyGroupFor(key, KEY_GROUPS);
        original.setCurrentKey(key);
        KeyedStates.value(original, original.table(NAME)).update("before");

        KeyedStateBackend next = new KeyedStateBackend("op", KEY_GROUPS, new KeyGroupRange(0, 63));
        next.adoptCopy(original, group);
        assertThat(next.table(NAME).group(group))
                .as("handed over: the original map itself, nothing copied yet")
                .isSameAs(original.table(NAME).group(group));

        next.setCurrentKey(key);
        KeyedStates.value(next, next.table(NAME)).update("after");
        assertThat(next.table(NAME).group(group))
                .as("touched: a copy of its own")
                .isNotSameAs(original.table(NAME).group(group))
                .containsEntry(key, "after");
        assertThat(original.table(NAME).group(group)).containsEntry(key, "before");
    }
}
