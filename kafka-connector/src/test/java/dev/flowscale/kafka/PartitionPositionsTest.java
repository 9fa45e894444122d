package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PartitionPositionsTest {

    @Test
    void aReaderHasNoLagSignalUntilItHasFoundItsPartitions() {
        PartitionPositions positions = new PartitionPositions("t");
        assertThat(positions.totalLag()).as("owning none yet means nothing").isEmpty();

        positions.discovered();
        assertThat(positions.totalLag()).as("found none: owes nothing").hasValue(0);
    }

    @Test
    void oneUnknownLogEndLeavesTheReaderWithoutASignalRatherThanAPartialSum() {
        PartitionPositions positions = new PartitionPositions("t");
        positions.add(0, 10);
        positions.add(2, 0);
        positions.discovered();
        positions.endAt(0, 25);
        assertThat(positions.totalLag()).isEmpty();

        positions.endAt(2, 5);
        assertThat(positions.totalLag()).hasValue(15 + 5);
    }

    @Test
    void endsOnlyGrowSoAStaleAnswerDoesNotShrinkTheLag() {
        PartitionPositions positions = new PartitionPositions("t");
        positions.add(0, 0);
        positions.discovered();
        positions.endAt(0, 40);
        positions.endAt(0, 30);
        assertThat(positions.totalLag()).hasValue(40);
    }
}
