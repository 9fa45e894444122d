package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.model.FittedCurves;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A capacity curve is fitted again only when the medians it is fitted to change. */
class FittedCurvesTest {

    private static final PolicyConfig LEARNING =
            PolicyConfig.builder().learnScalability(true).scalabilityPrior(0.8).build();

    /** Past decisions that measured "op" at 2 and 4, with capacity flattening out. */
    private static final ScalingHistory MEASURED =
            new ScalingHistory(List.of(measured(2, 200), measured(4, 360)), List.of());

    private static ScalingDecision decide(
            Ds2Policy policy, int p, double capacity, double rate, ScalingHistory h) {
        return policy.decide(
                topology(List.of("src:1", "op:" + p), "src->op"),
                window(source("src", 1, 100_000, rate, 0), op("op", p, capacity, 0)),
                h);
    }

    private static ScalingDecision measured(int p, double capacity) {
        return decide(
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END)),
                p,
                capacity,
                capacity / 2,
                ScalingHistory.empty());
    }

    @Test
    void decisionsWithUnchangedMediansFitTheCurveOnce() {
        FittedCurves fitted = new FittedCurves();
        Ds2Policy policy = new Ds2Policy(LEARNING, clockAt(END), fitted);

        for (int i = 0; i < 5; i++) {
            ScalingDecision d = decide(policy, 8, 560, 700, MEASURED);
            assertThat(d.operators().get("op").reasons())
                    .as(d.explain())
                    .anyMatch(r -> r.contains("fitted on parallelisms [2, 4, 8]"));
        }

        assertThat(fitted.fits()).isEqualTo(1);
    }

    @Test
    void aChangedMedianIsFittedAgain() {
        FittedCurves fitted = new FittedCurves();
        Ds2Policy policy = new Ds2Policy(LEARNING, clockAt(END), fitted);

        decide(policy, 8, 560, 700, MEASURED);
        decide(policy, 8, 600, 700, MEASURED);
        decide(policy, 8, 600, 700, MEASURED);

        assertThat(fitted.fits()).isEqualTo(2);
    }

    @Test
    void aReusedCurveDecidesAsAFreshFit() {
        Ds2Policy reusing = new Ds2Policy(LEARNING, clockAt(END));
        decide(reusing, 8, 560, 700, MEASURED);

        ScalingDecision reused = decide(reusing, 8, 560, 700, MEASURED);
        ScalingDecision fresh =
                decide(new Ds2Policy(LEARNING, clockAt(END)), 8, 560, 700, MEASURED);

        assertThat(reused.explain()).isEqualTo(fresh.explain());
        assertThat(reused.newParallelism()).isEqualTo(fresh.newParallelism());
    }
}
