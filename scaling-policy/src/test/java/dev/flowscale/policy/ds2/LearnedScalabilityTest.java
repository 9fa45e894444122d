package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sizing with capacity curves learned from the parallelisms the job ran at. */
class LearnedScalabilityTest {

    private static final PolicyConfig LEARNING =
            PolicyConfig.builder().learnScalability(true).scalabilityPrior(0.8).build();

    /**
     * "op" at parallelism p with the given aggregate capacity behind a source offering {@code
     * rate}.
     */
    private static ScalingDecision decide(
            PolicyConfig config, int p, double capacity, double rate, ScalingHistory h) {
        return new Ds2Policy(config, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:" + p), "src->op"),
                        window(source("src", 1, 100_000, rate, 0), op("op", p, capacity, 0)),
                        h);
    }

    /** A past decision that measured "op" at parallelism p with the given aggregate capacity. */
    private static ScalingDecision measured(int p, double capacity) {
        return decide(PolicyConfig.exactDs2(), p, capacity, capacity / 2, ScalingHistory.empty());
    }

    @Test
    void aboveTheOnlyParallelismMeasuredCapacityIsAssumedToGrowAsThePrior() {
        // 100 x p^0.8 >= 500 needs p >= 5^(1/0.8) = 7.48; linear DS2 says 5
        assertThat(decide(LEARNING, 1, 100, 500, ScalingHistory.empty()).newParallelism())
                .containsEntry("op", 8);
        assertThat(
                        decide(PolicyConfig.exactDs2(), 1, 100, 500, ScalingHistory.empty())
                                .newParallelism())
                .containsEntry("op", 5);
    }

    @Test
    void twoParallelismsGiveAFittedCurveThatSizesTheNextRescale() {
        // measured 100 at 1 and 100 x 10^0.8 = 631 at 10: capacity 100 p^0.8 reaches 1000 at p =
        // 17.8
        ScalingHistory h = new ScalingHistory(List.of(measured(1, 100)), List.of());

        OperatorDecision d =
                decide(LEARNING, 10, 100 * Math.pow(10, 0.8), 1000, h).operators().get("op");

        assertThat(d.newParallelism()).isEqualTo(18);
        assertThat(d.reasons()).anyMatch(r -> r.contains("p^0.80, fitted on parallelisms [1, 10]"));
    }

    @Test
    void aScaleUpThatAddedAlmostNoCapacityIsNotFollowedByAnother() {
        // 4 -> 8 raised capacity from 400 to 420: 5 % of the 100 % expected. Linear DS2 would go on
        // to 12 for 600 rec/s; the learned policy scales no further and says why (going back to 4
        // would lose capacity the job cannot spare, so it stays)
        ScalingHistory h = new ScalingHistory(List.of(measured(4, 400)), List.of());

        ScalingDecision decision = decide(LEARNING, 8, 420, 600, h);
        OperatorDecision d = decision.operators().get("op");

        assertThat(decide(PolicyConfig.exactDs2(), 8, 420, 600, h).newParallelism())
                .containsEntry("op", 12);
        assertThat(decision.isScale()).as(decision.explain()).isFalse();
        assertThat(d.newParallelism()).isEqualTo(8);
        assertThat(decision.reasons())
                .contains(
                        "no rescale helps: the planned configuration would carry no more than"
                                + " the running one");
        assertThat(d.reasons())
                .anyMatch(
                        r ->
                                r.startsWith("op: 4 -> 8 raised capacity 400 -> 420 rec/s")
                                        && r.endsWith(
                                                "more instances will not help; holding at 4"));
    }
}
