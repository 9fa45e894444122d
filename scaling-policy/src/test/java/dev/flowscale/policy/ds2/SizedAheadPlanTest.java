package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Predictive mode's plan with a periodic forecast: per operator the larger of the near plan (the
 * forecast until the next decision can take effect, with catch-up) and the ahead plan (the forecast
 * over the scale-down delay, without catch-up). "op" carries 100 rec/s per instance; a rescale
 * costs 30 s and a needed one drains its backlog in 225 s (75 % of the 300 s catch-up time).
 */
class SizedAheadPlanTest {

    private static final PolicyConfig CONFIG =
            PolicyConfig.builder()
                    .catchUpDuration(Duration.ofSeconds(300))
                    .expectedRescaleDuration(Duration.ofSeconds(30))
                    .predictive(true)
                    .build();
    private static final JobTopology JOB = topology(List.of("src:1", "op:4"), "src->op");
    private static final MetricsWindow WINDOW =
            MetricsWindow.of(
                    END.minusSeconds(30),
                    END,
                    List.of(source("src", 1, 100_000, 900, 0), op("op", 4, 400, 400)));

    @Test
    void sizesAheadWhereTheNearPlanWouldNeedAnotherScaleUpBeforeItCouldGoDown() {
        // near: 1,000 + 1,000 × 30 s / 225 s = 1,133 rec/s → 12; ahead: 1,500 rec/s → 15
        OperatorDecision op = needed(periodic(1_000, 1_500));

        assertThat(op.newParallelism()).isEqualTo(15);
        assertThat(op.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                        "sized ahead for the forecast over the scale-down delay:"
                                                + " sized for the near forecast it would need 12"));
    }

    @Test
    void keepsTheNearPlanWhereItAlreadyCarriesTheForecastOverTheScaleDownDelay() {
        // ahead: 1,050 rec/s → 11, below the near plan's 12 (its catch-up covers the rise)
        OperatorDecision op = needed(periodic(1_000, 1_050));

        assertThat(op.newParallelism()).isEqualTo(12);
        assertThat(op.reasons()).noneMatch(r -> r.startsWith("sized ahead"));
    }

    @Test
    void sizesATrendForecastForWhereTheRampGoesWithCatchUp() {
        // no period: one plan, 1,500 + 1,500 × 30 s / 225 s = 1,700 rec/s → 17
        OperatorDecision op =
                needed(new Forecasts(Map.of(), Map.of("src", 1_500.0), false, List.of()));

        assertThat(op.newParallelism()).isEqualTo(17);
        assertThat(op.reasons()).noneMatch(r -> r.startsWith("sized ahead"));
    }

    /** A periodic forecast: {@code near} until the next decision, {@code ahead} over the delay. */
    private static Forecasts periodic(double near, double ahead) {
        return new Forecasts(Map.of("src", near), Map.of("src", ahead), false, List.of());
    }

    private static OperatorDecision needed(Forecasts forecasts) {
        ScalingHistory history = ScalingHistory.empty();
        Map<String, Ds2Formula.Estimate> required =
                Ds2Formula.estimate(
                        JOB,
                        WINDOW,
                        SourceTarget.rates(SourceTarget.base(JOB, WINDOW, CONFIG, forecasts)));
        return new Plan(
                        JOB,
                        WINDOW,
                        Ds2Formula.inOrder(JOB, WINDOW),
                        required,
                        CONFIG,
                        RescaleCost.of(history, CONFIG),
                        Capacities.of(JOB, WINDOW, history, CONFIG),
                        forecasts)
                .needed().stream()
                        .filter(d -> d.operatorId().equals("op"))
                        .findFirst()
                        .orElseThrow();
    }
}
