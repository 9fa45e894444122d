package dev.flowscale.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.jobs.SumPerKey;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class KeyedFunctionHarnessTest {
    private static final StateDescriptor<Long> SUM = StateDescriptor.value("sum", Long.class);

    private static KeyedFunctionHarness.Setup<Long, Long, Long> sums() {
        return KeyedFunctionHarness.of(SumPerKey::new, (Long x) -> x % 10);
    }

    @Test
    void recordsReachTheFunctionWithTheirKeyAndItsStateAndOutputCanBeRead() throws Exception {
        try (var harness = sums().open()) {
            harness.processElements(1L, 11L, 2L);
            assertThat(harness.output()).containsExactly(1L, 12L, 2L);
            assertThat(harness.valueState(SUM, 1L)).isEqualTo(12L);
            assertThat(harness.valueState(SUM, 3L)).isNull();
            assertThat(harness.keys(SUM)).containsExactlyInAnyOrder(1L, 2L);
        }
    }

    @Test
    void aSnapshotRestoredAtTwoInstancesGivesEachTheKeysOfItsKeyGroupsWithTheirState()
            throws Exception {
        HarnessSnapshot snapshot;
        try (var one = sums().open()) {
            for (long x : LongStream.range(0, 100).toArray()) {
                one.processElement(x);
            }
            snapshot = one.snapshot();
        }
        Map<Long, Long> restored = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            try (var half = sums().instance(i, 2).restore(snapshot)) {
                half.keys(SUM)
                        .forEach(
                                key -> {
                                    assertThat(half.owns(key)).isTrue();
                                    restored.put(key, half.valueState(SUM, key));
                                });
                long owned = LongStream.range(0, 10).filter(half::owns).findFirst().orElseThrow();
                half.processElement(owned + 100);
                assertThat(half.takeOutput()).containsExactly(restored.get(owned) + owned + 100);
            }
        }
        Map<Long, Long> expected = new HashMap<>();
        LongStream.range(0, 100).forEach(x -> expected.merge(x % 10, x, Long::sum));
        assertThat(restored).isEqualTo(expected);
    }

    @Test
    void aRecordWhoseKeyGroupTheInstanceDoesNotOwnIsRefusedAsTheEngineRefusesIt() throws Exception {
        try (var first = sums().instance(0, 2).open()) {
            long foreign =
                    LongStream.range(0, 10).filter(k -> !first.owns(k)).findFirst().orElseThrow();
            assertThatThrownBy(() -> first.processElement(foreign))
                    .isInstanceOf(EngineException.class)
                    .hasMessageContaining("does not own");
        }
    }

    @Test
    void aSnapshotOfOtherKeyGroupsIsRefusedNamingBoth() throws Exception {
        HarnessSnapshot snapshot;
        try (var h = sums().open()) {
            snapshot = h.snapshot();
        }
        assertThatThrownBy(() -> sums().keyGroups(64).restore(List.of(snapshot)))
                .hasMessageStartingWith("a snapshot of 128 key groups cannot be restored into 64");
    }
}
