package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.START;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatchUpTest {

    private static final PolicyConfig CATCH_UP = PolicyConfig.builder().catchUpDuration(Duration.ofSeconds(600))
            .expectedRescaleDuration(Duration.ofSeconds(30)).build();

    private static ScalingDecision decide(PolicyConfig config, int p, double rate, double backlog, ScalingHistory h) {
        return new Ds2Policy(config, clockAt(END)).decide(topology(List.of("src:1", "op:" + p), "src->op"),
                window(source("src", 1, 100_000, rate, backlog), op("op", p, 100.0 * p, 0)), h);
    }

    @Test
    void addsTheBacklogAndTheRescaleDowntimeToTheSourceTarget() {
        ScalingDecision d = decide(CATCH_UP, 10, 1000, 60_000, ScalingHistory.empty());

        assertThat(d.newParallelism()).containsEntry("op", 12);
        assertThat(d.operators().get("src").targetInputRate()).isEqualTo(1150.0);
        assertThat(d.operators().get("src").catchUpShare()).isCloseTo(150.0 / 1150, offset(1e-9));
        assertThat(d.operators().get("src").reasons().get(0))
                .isEqualTo("source target 1150.0 rec/s = offered 1000.0 + backlog 90000 / 600 s (catch-up share 13.0 %)");
        assertThat(d.reasons()).anyMatch(r -> r.contains("downtime of 30 s"));
    }

    @Test
    void ignoresTheBacklogWhenCatchUpIsDisabled() {
        ScalingDecision d = decide(PolicyConfig.defaults(), 10, 1000, 60_000, ScalingHistory.empty());

        assertThat(d.outcome()).isEqualTo(Outcome.NO_CHANGE);
        assertThat(d.operators().get("src").catchUpShare()).isZero();
    }

    @Test
    void staysWhenReturningToPlainDs2CouldNotDrainTheBacklogOfItsOwnRescale() {
        ScalingDecision d = decide(CATCH_UP, 11, 1000, 0, ScalingHistory.empty());

        assertThat(d.outcome()).isEqualTo(Outcome.NO_CHANGE);
        assertThat(d.newParallelism()).containsEntry("op", 11);
    }

    @Test
    void returnsToPlainDs2OnceTheBacklogDrainedWhenItsSpareCapacitySuffices() {
        ScalingDecision d = decide(CATCH_UP, 11, 950, 0, ScalingHistory.empty());

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("op", 10);
    }

    @Test
    void plansWithTheMeasuredDurationOfTheLastRescale() {
        RescaleRecord last = RescaleRecord.started(START.minusSeconds(200), Map.of())
                .finishedAt(START.minusSeconds(80), false);

        ScalingDecision d = decide(CATCH_UP, 10, 1000, 60_000, new ScalingHistory(List.of(), List.of(last)));

        assertThat(d.operators().get("src").targetInputRate()).isEqualTo(1000 + (60_000 + 120_000) / 600.0);
        assertThat(d.reasons()).anyMatch(r -> r.contains("downtime of 120 s"));
    }

    @Test
    void holdsScaleDownsWhileTheBacklogIsStillDraining() {
        ScalingDecision d = decide(CATCH_UP, 14, 1000, 6_000, ScalingHistory.empty());

        assertThat(d.newParallelism()).containsEntry("op", 14);
        assertThat(d.operators().get("op").recommendedParallelism()).isLessThan(14);
        assertThat(d.operators().get("op").reasons()).anyMatch(r -> r.startsWith("scale-down held: source 'src'"));
    }
}
