package dev.flowscale.policy.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.SourceRateLog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLogTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void everyClosedMinuteKeepsTheMeanOfTheOfferedRatesOfItsWindowsPerSource() {
        RateLog log = new RateLog(10);

        log.record(window(30, 100, 10));
        log.record(window(60 - 1, 200, 20));
        log.record(window(90, 300, 30));
        log.record(window(150, 999, 99)); // minute 2 is still open

        assertThat(read(log.snapshot(), "src")).containsExactly("0:150.0", "60:300.0");
        assertThat(read(log.snapshot(), "other")).containsExactly("0:15.0", "60:30.0");
        assertThat(read(log.snapshot(), "op")).isEmpty();
    }

    @Test
    void onlyTheLastBucketsAreKeptSoMemoryStaysBounded() {
        RateLog log = new RateLog(3);

        for (int minute = 0; minute <= 10; minute++) {
            log.record(window(60L * minute + 30, minute, 0));
        }

        assertThat(read(log.snapshot(), "src")).containsExactly("420:7.0", "480:8.0", "540:9.0");
        assertThat(log.snapshot().size("src")).isEqualTo(3);
    }

    @Test
    void aMinuteWithoutAWindowIsLeftOutAndTheSameWindowTwiceCountsOnce() {
        RateLog log = new RateLog(10);

        log.record(window(30, 100, 0));
        log.record(window(30, 700, 0));
        log.record(window(150, 300, 0));
        log.record(window(190, 0, 0));

        assertThat(read(log.snapshot(), "src")).containsExactly("0:100.0", "120:300.0");
    }

    @Test
    void aRestoredLogHoldsTheStoredBucketsAndGoesOnFromThem() {
        RateLog stored = new RateLog(10);
        for (int minute = 0; minute <= 4; minute++) {
            stored.record(window(60L * minute + 30, minute, 0));
        }
        RateLog restored = new RateLog(3);

        restored.restore(stored.snapshot());
        restored.record(window(60L * 5 + 30, 5, 0));

        assertThat(read(restored.snapshot(), "src"))
                .as(
                        "the newest three closed buckets that fit (1 to 3), then minute 4, open"
                                + " when stored and so without a sample, closed by minute 5")
                .containsExactly("120:2.0", "180:3.0");
        assertThat(restored.snapshot().size("src")).isEqualTo(3);
    }

    @Test
    void aGapLongerThanTheLogForgetsWhatCameBefore() {
        RateLog log = new RateLog(3);

        log.record(window(30, 100, 0));
        log.record(window(90, 200, 0));
        log.record(window(60L * 1000 + 30, 300, 0));
        log.record(window(60L * 1001 + 30, 400, 0));

        assertThat(read(log.snapshot(), "src")).containsExactly("60000:300.0");
    }

    /** Buckets that ended by the far future, as "start second:mean". */
    private static List<String> read(SourceRateLog log, String source) {
        List<String> out = new ArrayList<>();
        log.forEachBefore(
                source,
                Instant.MAX,
                (at, rate) -> out.add(at.getEpochSecond() - T0.getEpochSecond() + ":" + rate));
        return out;
    }

    /** A 30 s window ending {@code endSecond} after T0 with two sources and an operator. */
    private static MetricsWindow window(long endSecond, double srcOffered, double otherOffered) {
        Instant end = T0.plusSeconds(endSecond);
        return MetricsWindow.of(
                end.minusSeconds(30),
                end,
                List.of(
                        OperatorMetrics.of("src", 1, 1000, 1000, 500, 500)
                                .withSource(srcOffered, 0.0),
                        OperatorMetrics.of("other", 1, 1000, 1000, 500, 500)
                                .withSource(otherOffered, 0.0),
                        OperatorMetrics.of("op", 1, 1000, 1000, 500, 500)));
    }
}
