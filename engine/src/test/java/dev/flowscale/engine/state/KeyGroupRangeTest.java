package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyGroupRangeTest {

    @Test
    void describesItsBoundsInclusively() {
        KeyGroupRange range = new KeyGroupRange(0, 63);
        assertThat(range.size()).isEqualTo(64);
        assertThat(range.contains(0)).isTrue();
        assertThat(range.contains(63)).isTrue();
        assertThat(range.contains(64)).isFalse();
        assertThat(range).hasToString("[0..63]");
    }

    @Test
    void everyEmptyRangeEqualsEmpty() {
        assertThat(new KeyGroupRange(5, 4)).isEqualTo(KeyGroupRange.EMPTY);
        assertThat(KeyGroupRange.EMPTY.isEmpty()).isTrue();
        assertThat(KeyGroupRange.EMPTY.size()).isZero();
        assertThat(KeyGroupRange.EMPTY.contains(0)).isFalse();
        assertThat(KeyGroupRange.EMPTY).hasToString("[]");
    }

    @Test
    void iteratesKeyGroupsInOrder() {
        KeyGroupRange range = new KeyGroupRange(3, 6);
        List<Integer> seen = new ArrayList<>();
        range.forEach(seen::add);
        range.forEachKeyGroup(seen::add);
        assertThat(seen).containsExactly(3, 4, 5, 6, 3, 4, 5, 6);
        assertThat(range.stream().sum()).isEqualTo(18);
    }

    @Test
    void intersectsOverlappingRanges() {
        KeyGroupRange a = new KeyGroupRange(0, 63);
        assertThat(a.intersection(new KeyGroupRange(60, 100))).isEqualTo(new KeyGroupRange(60, 63));
        assertThat(a.intersection(new KeyGroupRange(64, 100))).isEqualTo(KeyGroupRange.EMPTY);
    }

    @Test
    void rejectsNegativeStart() {
        assertThatThrownBy(() -> new KeyGroupRange(-1, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("start");
    }
}
