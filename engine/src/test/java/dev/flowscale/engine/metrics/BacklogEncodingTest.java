package dev.flowscale.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "No backlog signal" reaches the counter record, and the rates over it, as null only. */
class BacklogEncodingTest {

    @Test
    void aSourceOwesAnUnknownBacklogUntilItsReaderTells() {
        InstanceCounterRecorder source = new InstanceCounterRecorder("src", 0, true);
        source.start(0);

        assertThat(source.snapshot(10).backlog()).isNull();

        source.backlog(42L);
        assertThat(source.snapshot(20).backlog()).isEqualTo(42L);

        source.backlog(null);
        assertThat(source.snapshot(30).backlog()).isNull();
    }

    @Test
    void aNegativeBacklogIsRefusedWithTheSourceAndTheFixNamed() {
        InstanceCounterRecorder source = new InstanceCounterRecorder("src", 2, true);

        assertThatThrownBy(() -> source.backlog(-1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("src/2")
                .hasMessageContaining("or null while the reader cannot tell");
    }

    @Test
    void aLiveBacklogWithoutSignalIsNullAndAnOperatorThatIsNoSourceOwesNothing() {
        InstanceCounterRecorder source = new InstanceCounterRecorder("src", 0, true);
        source.start(0);
        source.backlog(5L);
        source.liveBacklog(() -> null);
        InstanceCounterRecorder map = new InstanceCounterRecorder("map", 0, false);
        map.start(0);

        assertThat(source.snapshot(10).backlog()).isNull();
        assertThat(map.snapshot(10).backlog()).isZero();

        source.liveBacklog(() -> 8L);
        assertThat(source.snapshot(20).backlog()).isEqualTo(8L);
        source.liveBacklog(() -> -3L);
        assertThat(source.snapshot(30).backlog()).as("a negative live reading").isNull();
    }

    @Test
    void anOperatorsBacklogIsUnknownWhenOneInstancesIsAndTheSumOtherwise() {
        OperatorRates oneUnknown = OperatorRates.of("src", List.of(rates(0, 7L), rates(1, null)));
        OperatorRates allKnown = OperatorRates.of("src", List.of(rates(0, 7L), rates(1, 3L)));

        assertThat(oneUnknown.backlog()).isNull();
        assertThat(allKnown.backlog()).isEqualTo(10L);
    }

    @Test
    void anOperatorsRatesAreTheSumsOfItsInstancesAndOneWithoutUsefulTimeAddsNothing() {
        OperatorRates op = OperatorRates.of("map", List.of(rates(0, 0L), idle(1)));

        assertThat(op.trueProcessingRate()).isEqualTo(100.0);
        assertThat(op.observedProcessingRate()).isEqualTo(100.0);
        assertThat(op.instances().get(1).trueProcessingRate()).isNaN();
        assertThat(OperatorRates.of("none", List.of()).trueProcessingRate()).isNaN();
    }

    /** 100 records in 1 s of useful time over a 1 s window. */
    private static InstanceRates rates(int instance, Long backlog) {
        return InstanceRates.between(
                counts(instance, 0, 0, 0L), counts(instance, 100, 1_000_000_000L, backlog));
    }

    /** No record and no useful time over a 1 s window. */
    private static InstanceRates idle(int instance) {
        InstanceCounts start = counts(instance, 0, 0, 0L);
        InstanceCounts end =
                new InstanceCounts(
                        "map",
                        instance,
                        0,
                        1_000_000_000L,
                        0,
                        0,
                        0,
                        1_000_000_000L,
                        0,
                        0L,
                        false,
                        0,
                        new long[0],
                        null,
                        null);
        return InstanceRates.between(start, end);
    }

    private static InstanceCounts counts(int instance, long records, long nanos, Long backlog) {
        return new InstanceCounts(
                "op",
                instance,
                0,
                nanos,
                records,
                records,
                nanos,
                0,
                0,
                backlog,
                false,
                0,
                new long[0],
                null,
                null);
    }
}
