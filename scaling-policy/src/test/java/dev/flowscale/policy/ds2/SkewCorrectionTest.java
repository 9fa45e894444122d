package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.InstanceMetrics;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkewCorrectionTest {

    private static final PolicyConfig SKEW_AWARE = PolicyConfig.builder().skewCorrection(true).build();

    /** "op" at parallelism 4, capacity 100 per instance, the hot instance taking {@code skew + (1-skew)/4}. */
    private static OperatorMetrics skewed(double skew, double processed) {
        List<InstanceMetrics> instances = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            double share = (k == 0 ? skew : 0) + (1 - skew) / 4;
            instances.add(new InstanceMetrics(k, 100, 100, processed * share, processed * share));
        }
        return OperatorMetrics.of("op", 4, 400, 400, processed, processed).withInstances(instances);
    }

    private static OperatorDecision decide(PolicyConfig config, OperatorMetrics op, double rate) {
        return new Ds2Policy(config, clockAt(END)).decide(topology(List.of("src:1", "op:4"), "src->op"),
                window(source("src", 1, 100_000, rate, 0), op), ScalingHistory.empty()).operators().get("op");
    }

    @Test
    void raisesParallelismUntilTheHotInstanceKeepsUp() {
        OperatorDecision d = decide(SKEW_AWARE, skewed(0.3, 210), 250);

        assertThat(d.newParallelism()).isEqualTo(7);
        assertThat(d.reasons()).anyMatch(r -> r.startsWith("key skew 0.30"));
    }

    @Test
    void leavesPlainDs2AloneWithoutSkewCorrection() {
        assertThat(decide(PolicyConfig.defaults(), skewed(0.3, 210), 250).newParallelism()).isEqualTo(3);
    }

    @Test
    void ignoresEvenlySpreadInstances() {
        assertThat(decide(SKEW_AWARE, skewed(0, 250), 250).newParallelism()).isEqualTo(3);
    }

    @Test
    void explainsWhenNoParallelismCanCarryTheHotKey() {
        OperatorDecision d = decide(SKEW_AWARE, skewed(0.5, 200), 250);

        assertThat(d.newParallelism()).isEqualTo(3);
        assertThat(d.reasons()).anyMatch(r -> r.contains("no parallelism sustains the target"));
    }

    @Test
    void estimatesTheSkewFromTheHottestInstancesShare() {
        assertThat(SkewCorrection.skew(skewed(0.3, 200))).isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-9));
    }
}
