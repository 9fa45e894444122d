package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WatermarkValveTest {

    @Test
    void theWatermarkIsTheMinimumOverTheChannels() {
        WatermarkValve valve = new WatermarkValve(3, Long.MIN_VALUE);
        assertThat(valve.onWatermark(0, 100)).isEqualTo(WatermarkValve.NO_ADVANCE);
        assertThat(valve.onWatermark(1, 50)).isEqualTo(WatermarkValve.NO_ADVANCE);
        assertThat(valve.onWatermark(2, 70)).isEqualTo(50);
        assertThat(valve.onWatermark(1, 200)).isEqualTo(70);
        assertThat(valve.current()).isEqualTo(70);
    }

    @Test
    void aChannelsWatermarkNeverGoesBack() {
        WatermarkValve valve = new WatermarkValve(1, Long.MIN_VALUE);
        assertThat(valve.onWatermark(0, 100)).isEqualTo(100);
        assertThat(valve.onWatermark(0, 40)).isEqualTo(WatermarkValve.NO_ADVANCE);
        assertThat(valve.current()).isEqualTo(100);
    }

    @Test
    void anIdleChannelStopsHoldingTheWatermarkBackUntilItWakes() {
        WatermarkValve valve = new WatermarkValve(2, Long.MIN_VALUE);
        valve.onWatermark(0, 100);
        assertThat(valve.onIdleness(1, true)).isEqualTo(100);
        assertThat(valve.allIdle()).isFalse();
        valve.onIdleness(1, false);
        assertThat(valve.onWatermark(0, 300)).isEqualTo(WatermarkValve.NO_ADVANCE);
        assertThat(valve.onWatermark(1, 250)).isEqualTo(250);
    }

    @Test
    void whenEveryChannelIsIdleTheInstanceIsIdleAndKeepsItsWatermark() {
        WatermarkValve valve = new WatermarkValve(2, Long.MIN_VALUE);
        valve.onWatermark(0, 10);
        valve.onWatermark(1, 20);
        valve.onIdleness(0, true);
        assertThat(valve.onIdleness(1, true)).isEqualTo(WatermarkValve.NO_ADVANCE);
        assertThat(valve.allIdle()).isTrue();
        assertThat(valve.current()).isEqualTo(20);
    }

    @Test
    void aRestoredInstanceStartsFromItsSnapshotsWatermark() {
        WatermarkValve valve = new WatermarkValve(2, 500);
        valve.onWatermark(0, 300);
        assertThat(valve.onWatermark(1, 400)).isEqualTo(WatermarkValve.NO_ADVANCE);
        assertThat(valve.onWatermark(1, 600)).isEqualTo(WatermarkValve.NO_ADVANCE);
        assertThat(valve.onWatermark(0, 700)).isEqualTo(600);
    }
}
