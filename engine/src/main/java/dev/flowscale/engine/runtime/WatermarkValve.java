package dev.flowscale.engine.runtime;

import java.util.Arrays;

/**
 * Merges the watermarks of an instance's input channels: its watermark is the minimum over the
 * channels that are not idle, and never goes back. When every channel is idle the instance is idle
 * too, so that downstream instances stop waiting for it (as Flink's watermark status).
 */
final class WatermarkValve {
    /** What {@link #current} was before an advance; returned when nothing advanced. */
    static final long NO_ADVANCE = Long.MIN_VALUE;

    private final long[] channels;
    private final boolean[] idle;
    private long current;
    private boolean allIdle;

    /**
     * @param floor the watermark to start from: a restored instance never goes below the watermark
     *     it had in the snapshot
     */
    WatermarkValve(int channelCount, long floor) {
        this.channels = new long[channelCount];
        this.idle = new boolean[channelCount];
        Arrays.fill(channels, Long.MIN_VALUE);
        this.current = floor;
    }

    long current() {
        return current;
    }

    boolean allIdle() {
        return allIdle;
    }

    /** A watermark arrived on {@code channel}: the new watermark, or {@link #NO_ADVANCE}. */
    long onWatermark(int channel, long watermark) {
        if (watermark > channels[channel]) {
            channels[channel] = watermark;
        }
        return advance();
    }

    /**
     * A channel turned idle or active; returns the new watermark or {@link #NO_ADVANCE} (an idle
     * channel may have been the one holding the minimum back).
     */
    long onIdleness(int channel, boolean isIdle) {
        idle[channel] = isIdle;
        boolean all = true;
        for (boolean i : idle) {
            all &= i;
        }
        allIdle = all;
        return advance();
    }

    private long advance() {
        long min = Long.MAX_VALUE;
        boolean any = false;
        for (int c = 0; c < channels.length; c++) {
            if (!idle[c]) {
                min = Math.min(min, channels[c]);
                any = true;
            }
        }
        if (!any || min <= current) {
            return NO_ADVANCE;
        }
        current = min;
        return min;
    }
}
