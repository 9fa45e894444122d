package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.SplitCollector;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SourceWatermarksTest {
    private final ManualClock clock = new ManualClock(Instant.ofEpochMilli(1_000_000));
    private InputGate gate;
    private TaskOutput output;

    @BeforeEach
    void connect() {
        gate = new InputGate(1, 1000, new Cancellation());
        PhaseClock phases = new PhaseClock(new InstanceCounterRecorder("src", 0, true), false);
        RecordWriter writer = TestingWriters.forward(gate, 16, phases, true);
        output = new TaskOutput(new RecordWriter[] {writer});
    }

    private SourceWatermarks watermarks(WatermarkStrategy<Long> strategy, long floor) {
        return new SourceWatermarks(output, strategy, clock, floor);
    }

    private static WatermarkStrategy<Long> boundedBy(long millis) {
        return WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofMillis(millis), (Long t) -> t);
    }

    /** Everything the source sent: records as "r@time", watermarks as "w:time", idleness. */
    private List<String> sent() throws InterruptedException {
        output.flush();
        List<String> events = new ArrayList<>();
        for (Batch b = gate.poll(); b != null; b = gate.poll()) {
            switch (b.kind) {
                case DATA -> {
                    for (int i = 0; i < b.size; i++) {
                        events.add(b.records[i] + "@" + b.timestamps[i]);
                    }
                }
                case WATERMARK -> events.add("w:" + b.watermark);
                case IDLENESS -> events.add(b.watermark == 1 ? "idle" : "active");
                default -> events.add(b.kind.name());
            }
        }
        return events;
    }

    @Test
    void recordsCarryTheirTimestampAndTheWatermarkTrailsTheLargestByTheBound() throws Exception {
        SourceWatermarks source = watermarks(boundedBy(10), Long.MIN_VALUE);
        source.collect(100L);
        source.collect(130L);
        source.collect(120L);
        source.afterPoll();
        assertThat(sent()).containsExactly("100@100", "130@130", "120@120", "w:119");
    }

    @Test
    void theWatermarkStepIsDueOncePerIntervalSoThatASourceTimesItOnlyThen() throws Exception {
        SourceWatermarks source = watermarks(boundedBy(0), Long.MIN_VALUE);
        assertThat(source.due()).isTrue();
        source.collect(100L);
        source.afterPoll();
        assertThat(source.due()).isFalse();
        clock.advance(Duration.ofMillis(199));
        assertThat(source.due()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(source.due()).isTrue();
        source.collect(300L);
        source.afterPoll();
        assertThat(source.due()).isFalse();
        assertThat(sent()).containsExactly("100@100", "w:99", "300@300", "w:299");
    }

    @Test
    void theSourceEmitsTheMinimumOfItsSplitsWatermarks() throws Exception {
        SourceWatermarks source = watermarks(boundedBy(0), Long.MIN_VALUE);
        SplitCollector.select(source, "fast");
        source.collect(500L);
        SplitCollector.select(source, "slow");
        source.collect(100L);
        source.afterPoll();
        SplitCollector.select(source, "slow");
        source.collect(300L);
        clock.advance(Duration.ofMillis(200));
        source.afterPoll();
        assertThat(sent()).containsExactly("500@500", "100@100", "w:99", "300@300", "w:299");
    }

    @Test
    void aSilentSplitTurnsIdleAndAWholeSilentSourceSaysSo() throws Exception {
        SourceWatermarks source =
                watermarks(boundedBy(0).withIdleness(Duration.ofSeconds(1)), Long.MIN_VALUE);
        SplitCollector.select(source, "a");
        source.collect(100L);
        SplitCollector.select(source, "b");
        source.collect(50L);
        source.afterPoll();
        clock.advance(Duration.ofMillis(600));
        SplitCollector.select(source, "a");
        source.collect(200L);
        source.afterPoll();
        clock.advance(Duration.ofMillis(600));
        source.afterPoll();
        clock.advance(Duration.ofMillis(1200));
        source.afterPoll();
        source.collect(400L);
        assertThat(sent())
                .containsExactly(
                        "100@100", "50@50", "w:49", "200@200", "w:199", "idle", "active",
                        "400@400");
    }

    @Test
    void aFinishedSplitStopsHoldingTheSourceBackAndWhenAllHaveFinishedEverythingMayFire()
            throws Exception {
        SourceWatermarks source = watermarks(boundedBy(0), Long.MIN_VALUE);
        SplitCollector.select(source, "a");
        source.collect(100L);
        SplitCollector.select(source, "b");
        source.collect(10L);
        source.afterPoll();
        SplitCollector.finish(source, "b");
        clock.advance(WatermarkStrategy.DEFAULT_INTERVAL);
        source.afterPoll();
        SplitCollector.finish(source, "a");
        clock.advance(WatermarkStrategy.DEFAULT_INTERVAL);
        source.afterPoll();
        assertThat(sent())
                .containsExactly("100@100", "10@10", "w:9", "w:99", "w:" + Long.MAX_VALUE);
    }

    @Test
    void watermarksAreEmittedAtMostOncePerInterval() throws Exception {
        SourceWatermarks source = watermarks(boundedBy(0), Long.MIN_VALUE);
        source.collect(10L);
        source.afterPoll();
        source.collect(20L);
        source.afterPoll();
        clock.advance(WatermarkStrategy.DEFAULT_INTERVAL);
        source.afterPoll();
        assertThat(sent()).containsExactly("10@10", "w:9", "20@20", "w:19");
    }

    @Test
    void aRestoredSourceResumesFromItsFloorAndNeverEmitsBelowIt() throws Exception {
        SourceWatermarks source = watermarks(boundedBy(0), 1_000);
        source.open();
        source.collect(500L);
        source.afterPoll();
        clock.advance(Duration.ofSeconds(1));
        source.collect(2_000L);
        source.afterPoll();
        source.endOfInput();
        assertThat(sent())
                .containsExactly("w:1000", "500@500", "2000@2000", "w:1999", "w:" + Long.MAX_VALUE);
    }
}
