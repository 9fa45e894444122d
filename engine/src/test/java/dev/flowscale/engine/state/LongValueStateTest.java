package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.LongValueState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.testing.HarnessSnapshot;
import dev.flowscale.engine.testing.KeyedFunctionHarness;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long value state is the same state as a {@code ValueState<Long>} of its descriptor: it reads
 * and writes the same entries on both backends and snapshots encode it byte for byte alike, so a
 * snapshot of either restores into the other, at any parallelism.
 */
class LongValueStateTest {
    private static final StateDescriptor<Long> COUNT = StateDescriptor.value("count", Long.class);
    private static final String[] WORDS = {"a", "b", "a", "c", "a", "b", "d", "e", "a", "f"};

    /** Counts words in a {@code ValueState<Long>}, as jobs did before long value state. */
    static final class BoxedCount extends KeyedProcessFunction<String, String, Long> {
        private ValueState<Long> count;

        @Override
        public void open(KeyedRuntimeContext context) {
            count = context.valueState(COUNT);
        }

        @Override
        public void processElement(String word, Context<String> context, Collector<Long> out) {
            Long current = count.value();
            long next = current == null ? 1 : current + 1;
            count.update(next);
            out.collect(next);
        }
    }

    /** The same count in a {@link LongValueState}. */
    static final class UnboxedCount extends KeyedProcessFunction<String, String, Long> {
        private LongValueState count;

        @Override
        public void open(KeyedRuntimeContext context) {
            count = context.longValueState(COUNT);
        }

        @Override
        public void processElement(String word, Context<String> context, Collector<Long> out) {
            out.collect(count.add(1));
        }
    }

    @Test
    void snapshotsOfBothStatesAreTheSameBytes() throws Exception {
        HarnessSnapshot boxed = run(BoxedCount::new);
        HarnessSnapshot unboxed = run(UnboxedCount::new);

        assertThat(unboxed.blocks().keySet()).isEqualTo(boxed.blocks().keySet());
        unboxed.blocks()
                .forEach(
                        (group, block) ->
                                assertThat(Arrays.equals(block, boxed.blocks().get(group)))
                                        .as("key group %d", group)
                                        .isTrue());
    }

    @Test
    void eitherStateRestoresTheOthersSnapshotAtAnotherParallelism() throws Exception {
        HarnessSnapshot boxed = run(BoxedCount::new);
        HarnessSnapshot unboxed = run(UnboxedCount::new);

        assertThat(countAfterRestore(UnboxedCount::new, boxed)).isEqualTo(5L);
        assertThat(countAfterRestore(BoxedCount::new, unboxed)).isEqualTo(5L);
    }

    @Test
    void onRocksDbItReadsAndWritesWhatAValueStateOfLongSees(@TempDir Path local) {
        KeyedStateBackend backend = RocksDbBackends.overAllKeyGroups(local, "longs");
        try {
            StateTable table = backend.table(COUNT);
            LongValueState count = LongValues.of(backend, table);
            ValueState<Long> boxed = KeyedStates.value(backend, table);
            backend.setCurrentKey("a");
            assertThat(count.exists()).isFalse();
            assertThat(count.valueOr(-1)).isEqualTo(-1);
            assertThat(count.add(2)).isEqualTo(2);
            assertThat(count.add(3)).isEqualTo(5);
            assertThat(boxed.value()).isEqualTo(5L);
            boxed.update(40L);
            assertThat(count.valueOr(-1)).isEqualTo(40);
            count.update(7);
            backend.setCurrentKey("b");
            assertThat(count.exists()).isFalse();
            backend.setCurrentKey("a");
            assertThat(count.exists()).isTrue();
            assertThat(boxed.value()).isEqualTo(7L);
            count.clear();
            assertThat(boxed.value()).isNull();
        } finally {
            backend.close();
        }
    }

    @Test
    void onTheHeapItKeepsLongsUnboxedAndCountsItsChanges() {
        KeyedStateBackend backend = new KeyedStateBackend("op", 128, new KeyGroupRange(0, 127));
        StateTable table = backend.table(COUNT);
        LongValueState count = LongValues.of(backend, table);
        backend.setCurrentKey("a");
        backend.snapshotted(1);
        count.add(1);
        assertThat(backend.unchangedSince(1)).as("an add is a change").isFalse();
        backend.snapshotted(2);
        count.update(9);

        assertThat(backend.unchangedSince(2)).as("an update is a change").isFalse();
        assertThat(table.group(backend.currentKeyGroupIndex())).containsEntry("a", 9L);
        assertThat(((KeyGroupMap) table.group(backend.currentKeyGroupIndex())).holdsLongs())
                .isTrue();
    }

    private static HarnessSnapshot run(
            Supplier<KeyedProcessFunction<String, String, Long>> function) throws Exception {
        try (var harness = KeyedFunctionHarness.of(function, (String w) -> w).open()) {
            harness.processElements(WORDS);
            return harness.snapshot();
        }
    }

    /** "a"'s count after restoring into instance 1 of 2 or 0 of 2, wherever "a" lands. */
    private static Long countAfterRestore(
            Supplier<KeyedProcessFunction<String, String, Long>> function, HarnessSnapshot snapshot)
            throws Exception {
        for (int index = 0; index < 2; index++) {
            try (var harness =
                    KeyedFunctionHarness.of(function, (String w) -> w)
                            .instance(index, 2)
                            .restore(List.of(snapshot))) {
                if (harness.owns("a")) {
                    harness.processElement("a");
                    return harness.output().get(0);
                }
            }
        }
        throw new AssertionError("no instance owns \"a\"");
    }
}
