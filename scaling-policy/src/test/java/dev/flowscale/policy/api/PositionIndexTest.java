package dev.flowscale.policy.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PositionIndexTest {

    @Test
    void findsEveryIdAtItsPositionAndNoneForAnUnknownId() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            ids.add("op" + i);
        }
        PositionIndex index = new PositionIndex(ids);

        for (int i = 0; i < ids.size(); i++) {
            assertThat(index.of(new String("op" + i))).isEqualTo(i);
        }
        assertThat(index.of("op1000")).isEqualTo(-1);
        assertThat(index.of("")).isEqualTo(-1);
    }

    @Test
    void idsWhoseHashCodesCollideKeepTheirOwnPositions() {
        // "Aa" and "BB" share a hash code, as do their concatenations
        List<String> ids = List.of("AaAa", "BBBB", "AaBB", "BBAa", "x");
        PositionIndex index = new PositionIndex(ids);

        for (int i = 0; i < ids.size(); i++) {
            assertThat(index.of(ids.get(i))).isEqualTo(i);
        }
        assertThat(index.of("Aa")).isEqualTo(-1);
    }

    @Test
    void anEmptyListHasNoPositions() {
        assertThat(new PositionIndex(List.of()).of("a")).isEqualTo(-1);
    }
}
