package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A scale-up on a steadily rising load is sized for the rate expected when the next rescale could
 * take effect; a flat or noisy load gets no extra.
 */
class RisingLoadTest {

    /** Catch-up 600 s, a 30 s downtime, no warm-up: with the 10 s window a 40 s horizon. */
    private static final PolicyConfig CONFIG =
            PolicyConfig.builder()
                    .catchUpDuration(Duration.ofSeconds(600))
                    .expectedRescaleDuration(Duration.ofSeconds(30))
                    .build();

    /** One decision per 10 s window at each offered rate, the last one now at {@link #END}. */
    private static ScalingDecision decideAfter(PolicyConfig config, double... offered) {
        List<ScalingDecision> decisions = new ArrayList<>();
        ScalingDecision last = null;
        for (int i = 0; i < offered.length; i++) {
            Instant at = END.minusSeconds(10L * (offered.length - 1 - i));
            last =
                    new Ds2Policy(config, clockAt(at))
                            .decide(
                                    topology(List.of("src:1", "op:10"), "src->op"),
                                    window(at, offered[i]),
                                    new ScalingHistory(List.copyOf(decisions), List.of()));
            decisions.add(last);
        }
        return last;
    }

    private static MetricsWindow window(Instant end, double offered) {
        return MetricsWindow.of(
                end.minusSeconds(10),
                end,
                List.of(source("src", 1, 100_000, offered, 0), op("op", 10, 1_000, 0)));
    }

    @Test
    void aScaleUpOnASteadyRampIsSizedForTheRateWhenTheNextRescaleCouldTakeEffect() {
        ScalingDecision d = decideAfter(CONFIG, 1_000, 1_050, 1_100, 1_150, 1_200);

        // 5 rec/s per s over 30 s downtime + 10 s window: 1,400 rec/s, plus its downtime's
        // 1,400 x 30 records over 450 s: 1,493.3 rec/s at 100 per instance
        assertThat(d.newParallelism()).containsEntry("op", 15);
        assertThat(d.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                                "source 'src': offered rate rising steadily over"
                                                        + " its last 5 rates, by 5.0 rec/s per s")
                                        && r.contains(
                                                "sized for 1,400 rec/s, the rate expected in 40 s"));
    }

    @Test
    void withoutARiseTheScaleUpIsSizedForTheRateOfferedNow() {
        ScalingDecision d = decideAfter(CONFIG, 1_200, 1_200, 1_200, 1_200, 1_200);

        // 1,200 + 1,200 x 30 / 450 = 1,280 rec/s
        assertThat(d.newParallelism()).containsEntry("op", 13);
        assertThat(d.reasons()).noneMatch(r -> r.contains("rising steadily"));
    }

    @Test
    void aNoisyFlatLoadGetsNoExtraOnAnySeed() {
        for (int seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            double[] offered = new double[8];
            for (int i = 0; i < offered.length; i++) {
                offered[i] = 1_200 + 60 * random.nextGaussian();
            }
            ScalingDecision d = decideAfter(CONFIG, offered);

            assertThat(d.reasons())
                    .as("seed %d", seed)
                    .noneMatch(r -> r.contains("rising steadily"));
        }
    }

    @Test
    void aStepIsNotASteadyRiseThoughEverySampleIsHigher() {
        double[][] step = {{-40, 1_000}, {-30, 1_001}, {-20, 1_002}, {-10, 1_003}, {0, 1_200}};
        double[][] straight = {{-40, 1_000}, {-30, 1_050}, {-20, 1_100}, {-10, 1_150}, {0, 1_200}};

        assertThat(RisingLoad.Trend.of(step).steady()).isFalse();
        assertThat(RisingLoad.Trend.of(straight).steady()).isTrue();
        assertThat(RisingLoad.Trend.of(new double[][] {{-10, 1_000}, {0, 1_100}}).steady())
                .as("two samples")
                .isFalse();
    }

    @Test
    void exactDs2IsNotSizedAheadAndPredictiveNoLowerThanReactive() {
        ScalingDecision exact =
                decideAfter(PolicyConfig.exactDs2(), 1_000, 1_050, 1_100, 1_150, 1_200);
        // five rates are too few for a period: the forecast alone would size for the rate now
        ScalingDecision predictive =
                decideAfter(
                        CONFIG.toBuilder().predictive(true).build(),
                        1_000,
                        1_050,
                        1_100,
                        1_150,
                        1_200);

        assertThat(exact.newParallelism()).containsEntry("op", 12);
        assertThat(exact.reasons()).noneMatch(r -> r.contains("rising steadily"));
        assertThat(predictive.newParallelism()).containsEntry("op", 15);
        assertThat(predictive.reasons()).anyMatch(r -> r.contains("rising steadily"));
    }
}
