package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.SourceRateLog;
import dev.flowscale.policy.sim.TableDefaults;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A daily period needs three days of samples, far more than the 1,000 decisions a loop keeps (8 h
 * at 30 s): predictive mode fits it from the history's per-minute source rate log.
 */
class DailyForecastTest {

    private static final Instant NOW = Instant.parse("2026-01-05T07:00:00Z");
    private static final PolicyConfig PREDICTIVE =
            TableDefaults.policy().toBuilder().predictive(true).build();
    private static final JobTopology JOB = Fixtures.topology(List.of("src:1", "op:4"), "src->op");

    @Test
    void fourDaysOfPerMinuteRatesLetTheForecastFindTheDailyPeriodAndFollowIt() {
        Forecasts f = forecasts(new ScalingHistory(List.of(), List.of(), dailyLog(NOW, 4)));

        assertThat(f.explain())
                .singleElement()
                .asString()
                .matches(
                        "source 'src': forecast .*\\(harmonic, period" + " 8[5-7]\\d\\d\\d s\\).*");
        assertThat(f.floor("src")).isCloseTo(rate(NOW.plusSeconds(60)), within(0.03 * rate(NOW)));
    }

    @Test
    void withoutTheLogOnlyATrendIsForecast() {
        Forecasts f = forecasts(ScalingHistory.empty());

        assertThat(f.explain()).singleElement().asString().contains("trend, no period found yet");
    }

    private static Forecasts forecasts(ScalingHistory history) {
        MetricsWindow window =
                MetricsWindow.of(
                        NOW.minusSeconds(30),
                        NOW,
                        List.of(
                                Fixtures.source("src", 1, 5000, rate(NOW), 0),
                                Fixtures.op("op", 4, 4000, 4000)));
        return Forecasts.of(
                JOB, window, history, PREDICTIVE, RescaleCost.of(history, PREDICTIVE), NOW);
    }

    /** The source's mean rate per minute over the {@code days} before the minute of {@code now}. */
    static SourceRateLog dailyLog(Instant now, int days) {
        Instant first = now.minus(Duration.ofDays(days));
        double[] means = new double[days * 24 * 60];
        for (int i = 0; i < means.length; i++) {
            means[i] = rate(first.plusSeconds(60L * i + 30));
        }
        return new SourceRateLog(
                Duration.ofMinutes(1), Map.of("src", new SourceRateLog.Series(first, means)));
    }

    /**
     * 1,000 rec/s ± 600 over a day, highest at 12:00 UTC; at 07:00 it rises by about 2.6 rec/s per
     * minute.
     */
    static double rate(Instant t) {
        double dayShare = (t.getEpochSecond() % 86_400) / 86_400.0;
        return 1000 - 600 * Math.cos(2 * Math.PI * dayShare);
    }
}
