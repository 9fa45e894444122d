package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.kafka.TransactionIds.Place;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TransactionIdsTest {
    private final TransactionIds ids = new TransactionIds("flowscale-counts", "to-kafka");

    @Test
    void anIdNamesItsNamespaceAndNumberAndIsReadBack() {
        assertThat(ids.id(3, 17)).isEqualTo("flowscale-counts-to-kafka-3-17");
        assertThat(ids.place("flowscale-counts-to-kafka-3-17")).contains(new Place(3, 17));
    }

    @Test
    void idsOfOtherSinksAndOfEarlierVersionsAreNotThisSinks() {
        assertThat(ids.place("flowscale-counts-to-kafka2-3-17")).isEmpty();
        assertThat(ids.place("flowscale-other-to-kafka-3-17")).isEmpty();
        assertThat(ids.place("flowscale-counts-to-kafka-3-17-extra")).isEmpty();
        assertThat(ids.place("flowscale-counts-to-kafka-0-3f2b9c1e-8d0a-4f5e-9a77-0c1d2e3f4a5b"))
                .as("the random ids of earlier versions, recovered by their snapshots")
                .isEmpty();
    }

    @Test
    void aPrefixWithRegexCharactersMatchesOnlyItself() {
        TransactionIds dotted = new TransactionIds("a.b", "sink");

        assertThat(dotted.place("a.b-sink-0-1")).contains(new Place(0, 1));
        assertThat(dotted.place("axb-sink-0-1")).isEmpty();
    }

    @Test
    void everyNamespaceOfALargerRunHasExactlyOneOwnerAfterADownscale() {
        int before = 7;
        int after = 3;
        for (int namespace = 0; namespace < before; namespace++) {
            int ns = namespace;
            assertThat(
                            IntStream.range(0, after)
                                    .filter(i -> TransactionIds.owns(i, after, ns))
                                    .count())
                    .as("owners of namespace %d", ns)
                    .isEqualTo(1);
        }
        assertThat(TransactionIds.owns(1, 3, 4)).isTrue();
        assertThat(TransactionIds.owns(2, 3, 2)).as("an instance owns its own namespace").isTrue();
    }
}
