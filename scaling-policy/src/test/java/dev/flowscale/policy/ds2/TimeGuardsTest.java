package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.START;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Guards that depend on time and history: scale-down delay, warm-up, rescale in progress. */
class TimeGuardsTest {

    private static final JobTopology JOB = topology(List.of("src:1", "op:10"), "src->op");
    private static final PolicyConfig DELAYED =
            PolicyConfig.builder().scaleDownDelay(Duration.ofSeconds(60)).build();

    /** Decides at {@code at} (a 10 s window ending then) with a source offering {@code rate}. */
    private static ScalingDecision decideAt(
            PolicyConfig config, Instant at, double rate, ScalingHistory history) {
        MetricsWindow w =
                MetricsWindow.of(
                        at.minusSeconds(10),
                        at,
                        List.of(source("src", 1, 100_000, rate, 0), op("op", 10, 1000, 0)));
        return new Ds2Policy(config, clockAt(at)).decide(JOB, w, history);
    }

    @Test
    void delaysAScaleDownThatWasJustRecommended() {
        ScalingDecision d = decideAt(DELAYED, END, 500, ScalingHistory.empty());

        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.blockReason()).contains(BlockReason.SCALE_DOWN_DELAYED);
        assertThat(d.newParallelism()).containsEntry("op", 10);
        assertThat(d.operators().get("op").reasons())
                .anyMatch(r -> r.startsWith("scale-down to 5 delayed"));
    }

    @Test
    void appliesTheHighestRecommendationOnceTheScaleDownWasRecommendedForTheWholeDelay() {
        List<ScalingDecision> past = new ArrayList<>();
        double[] rates = {590, 610, 560, 540, 580, 550, 600};
        for (int i = 0; i < rates.length - 1; i++) {
            past.add(
                    decideAt(
                            DELAYED,
                            END.plusSeconds(10L * i),
                            rates[i],
                            new ScalingHistory(past, List.of())));
        }

        ScalingDecision d =
                decideAt(
                        DELAYED,
                        END.plusSeconds(60),
                        rates[6],
                        new ScalingHistory(past, List.of()));

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("op", 7);
    }

    @Test
    void restartsTheDelayAtALoadChangeSoThatAScaleDownBeforeItCannotLendItsStreak() {
        List<ScalingDecision> past = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            past.add(
                    decideAt(
                            DELAYED,
                            END.plusSeconds(10L * i),
                            880,
                            new ScalingHistory(past, List.of())));
        }

        ScalingDecision d =
                decideAt(DELAYED, END.plusSeconds(60), 500, new ScalingHistory(past, List.of()));

        assertThat(past.get(5).operators().get("op").recommendedParallelism()).isEqualTo(9);
        assertThat(d.blockReason()).contains(BlockReason.SCALE_DOWN_DELAYED);
        assertThat(d.operators().get("op").reasons())
                .anyMatch(r -> r.contains("recommended for 0 s of 60 s"));
    }

    @Test
    void restartsTheDelayWhenARecommendationIsNotAScaleDown() {
        List<ScalingDecision> past = new ArrayList<>();
        double[] rates = {500, 500, 500, 1000, 500, 500};
        for (int i = 0; i < rates.length; i++) {
            past.add(
                    decideAt(
                            DELAYED,
                            END.plusSeconds(10L * i),
                            rates[i],
                            new ScalingHistory(past, List.of())));
        }

        ScalingDecision d =
                decideAt(DELAYED, END.plusSeconds(60), 500, new ScalingHistory(past, List.of()));

        assertThat(d.blockReason()).contains(BlockReason.SCALE_DOWN_DELAYED);
        assertThat(d.operators().get("op").reasons())
                .anyMatch(r -> r.contains("recommended for 20 s of 60 s"));
    }

    @Test
    void blocksWhileARescaleIsInProgress() {
        ScalingHistory history =
                new ScalingHistory(
                        List.of(), List.of(RescaleRecord.started(START, Map.of("op", 4))));

        ScalingDecision d = decideAt(PolicyConfig.exactDs2(), END, 2000, history);

        assertThat(d.blockReason()).contains(BlockReason.RESCALE_IN_PROGRESS);
        assertThat(d.reasons().get(0)).contains("has not finished");
    }

    @Test
    void ignoresAWindowThatStartsDuringTheWarmUp() {
        RescaleRecord done =
                RescaleRecord.started(START.minusSeconds(30), Map.of())
                        .finishedAt(START.minusSeconds(5), false);
        PolicyConfig config = PolicyConfig.builder().warmUp(Duration.ofSeconds(10)).build();

        ScalingDecision d =
                decideAt(config, END, 2000, new ScalingHistory(List.of(), List.of(done)));

        assertThat(d.blockReason()).contains(BlockReason.WARMING_UP);
        assertThat(d.operators()).isEmpty();
    }

    @Test
    void decidesOnceTheWindowStartsAfterTheWarmUp() {
        RescaleRecord done =
                RescaleRecord.started(START.minusSeconds(30), Map.of())
                        .finishedAt(START.minusSeconds(10), false);
        PolicyConfig config = PolicyConfig.builder().warmUp(Duration.ofSeconds(10)).build();

        ScalingDecision d =
                decideAt(config, END, 2000, new ScalingHistory(List.of(), List.of(done)));

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
    }
}
