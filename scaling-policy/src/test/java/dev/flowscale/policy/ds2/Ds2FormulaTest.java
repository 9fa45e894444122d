package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import org.junit.jupiter.api.Test;

class Ds2FormulaTest {

    private final Ds2Policy policy = new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END));

    private ScalingDecision decide(JobTopology t, MetricsWindow w) {
        return policy.decide(t, w, ScalingHistory.empty());
    }

    @Test
    void reproducesTheDs2ReferenceCase() {
        JobTopology t = topology(List.of("src:1", "op1:1", "op2:1"), "src->op1", "op1->op2");
        MetricsWindow w =
                window(source("src", 1, 200, 100, 0), op("op1", 1, 50, 400), op("op2", 1, 100, 0));

        ScalingDecision d = decide(t, w);

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism())
                .containsExactly(entry("src", 1), entry("op1", 2), entry("op2", 8));
        assertThat(d.operators().get("op2").targetInputRate()).isEqualTo(800.0);
    }

    @Test
    void explainsTheFormulaInTheReasons() {
        JobTopology t = topology(List.of("src:1", "op:1"), "src->op");
        ScalingDecision d =
                decide(t, window(source("src", 1, 5000, 1000, 0), op("op", 1, 100, 100)));

        assertThat(d.operators().get("op").reasons())
                .contains("DS2: target 1000.0 rec/s / capacity 100.0 rec/s per instance = 10");
        assertThat(d.operators().get("op").capacityPerInstance()).isEqualTo(100.0);
        assertThat(d.operators().get("op").utilization()).isEqualTo(1.0);
    }

    @Test
    void sumsTheInputsOfADiamond() {
        JobTopology t =
                topology(
                        List.of("src:1", "left:1", "right:2", "join:1"),
                        "src->left",
                        "src->right",
                        "left->join",
                        "right->join");
        MetricsWindow w =
                window(
                        source("src", 1, 1000, 100, 0),
                        op("left", 1, 50, 50),
                        op("right", 2, 100, 50),
                        op("join", 1, 20, 10));

        ScalingDecision d = decide(t, w);

        assertThat(d.newParallelism())
                .containsExactly(
                        entry("src", 1), entry("left", 2), entry("right", 2), entry("join", 8));
        assertThat(d.operators().get("join").targetInputRate()).isEqualTo(150.0);
    }

    @Test
    void handlesTwoSourcesWithTheirOwnRates() {
        JobTopology t =
                topology(List.of("bids:1", "auctions:1", "join:1"), "bids->join", "auctions->join");
        MetricsWindow w =
                window(
                        source("bids", 1, 1000, 900, 0),
                        source("auctions", 1, 1000, 100, 0),
                        op("join", 1, 250, 25));

        ScalingDecision d = decide(t, w);

        assertThat(d.newParallelism()).containsEntry("join", 4);
        assertThat(d.operators().get("join").targetInputRate()).isEqualTo(1000.0);
    }

    @Test
    void multipliesTheTargetByASelectivityAboveOne() {
        JobTopology t =
                topology(
                        List.of("src:1", "flatMap:1", "count:1"), "src->flatMap", "flatMap->count");
        MetricsWindow w =
                window(
                        source("src", 1, 100_000, 16_000, 0),
                        op("flatMap", 1, 1_600, 32_000),
                        op("count", 1, 16_000, 0));

        ScalingDecision d = decide(t, w);

        assertThat(d.newParallelism())
                .containsExactly(entry("src", 1), entry("flatMap", 10), entry("count", 20));
    }

    @Test
    void usesAConfiguredSourceRateInsteadOfTheOfferedOne() {
        JobTopology t = topology(List.of("src:1", "op:1"), "src->op");
        Ds2Policy configured =
                new Ds2Policy(
                        PolicyConfig.builder().sourceTargetRate("src", 500).build(), clockAt(END));

        ScalingDecision d =
                configured.decide(
                        t,
                        window(source("src", 1, 5000, 100, 0), op("op", 1, 100, 100)),
                        ScalingHistory.empty());

        assertThat(d.newParallelism()).containsEntry("op", 5);
        assertThat(d.operators().get("src").reasons().get(0)).contains("500.0 rec/s (configured");
    }

    @Test
    void keepsAnOperatorWithoutExpectedInputAtOne() {
        JobTopology t = topology(List.of("src:1", "op:4"), "src->op");

        ScalingDecision d = decide(t, window(source("src", 1, 5000, 0, 0), op("op", 4, 0, 0)));

        assertThat(d.newParallelism()).containsEntry("op", 1);
    }

    @Test
    void reportsNoChangeWhenTheParallelismIsAlreadyOptimal() {
        JobTopology t = topology(List.of("src:1", "op:10"), "src->op");

        ScalingDecision d =
                decide(t, window(source("src", 1, 5000, 1000, 0), op("op", 10, 1000, 1000)));

        assertThat(d.outcome()).isEqualTo(Outcome.NO_CHANGE);
    }
}
