package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyGroupLoadTest {

    @Test
    void theBusiestInstanceTakesTheMostLoadedRangeOfKeyGroupsAsTheEngineAssignsThem() {
        // six key groups, evenly loaded; q = 4 owns [0, 2), [2, 3), [3, 5), [5, 6)
        KeyGroupLoad even = KeyGroupLoad.of(List.of(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)).orElseThrow();

        assertThat(even.busiestShare(1)).isCloseTo(1, offset(1e-12));
        assertThat(even.busiestShare(4)).isCloseTo(2 / 6.0, offset(1e-12));
        assertThat(even.busiestShare(6)).isCloseTo(1 / 6.0, offset(1e-12));
    }

    @Test
    void aParallelismAboveTheKeyGroupsCountsAsOneInstancePerKeyGroup() {
        KeyGroupLoad load = KeyGroupLoad.of(List.of(3.0, 1.0, 0.0, 0.0)).orElseThrow();

        // q = 2: [0, 2) holds 3 + 1; q = 3: [0, 2), [2, 3), [3, 4); q = 4 and above: group 0
        assertThat(load.busiestShare(2)).isCloseTo(1, offset(1e-12));
        assertThat(load.busiestShare(3)).isCloseTo(1, offset(1e-12));
        assertThat(load.busiestShare(4)).isCloseTo(0.75, offset(1e-12));
        assertThat(load.busiestShare(9)).isCloseTo(0.75, offset(1e-12));
    }

    @Test
    void noInputGivesNoSpreadToReadFrom() {
        assertThat(KeyGroupLoad.of(List.of(0.0, 0.0))).isEmpty();
        assertThat(KeyGroupLoad.of(List.of())).isEmpty();
    }
}
