package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuStarvationTest {

    private static final JobTopology JOB =
            topology(List.of("src:1", "a:2", "b:2", "c:2"), "src->a", "a->b", "b->c");

    @Test
    void
            whenMostOperatorsRanOnACoreForLittleOfTheirUsefulTime_thenTheDecisionSaysTheJobIsCpuStarved() {
        ScalingDecision d = decide(0.35, 0.4, 0.95);
        assertThat(d.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                                "CPU-starved: the operators' threads ran on a core for a median 40 %")
                                        && r.contains("least: 'a', 35 %")
                                        && r.contains(
                                                "more CPU per pod (an in-place resize) serves better"));
    }

    @Test
    void whenOnlyOneOperatorRanOffTheCores_thenItIsTakenForBlockedInCallsAndNothingIsSaid() {
        assertThat(decide(0.05, 0.97, 0.99).reasons()).noneMatch(r -> r.startsWith("CPU-starved"));
    }

    @Test
    void whenTheEngineDoesNotMeasureCpuTime_thenNothingIsSaid() {
        double unknown = OperatorMetrics.UNKNOWN_CPU_SHARE;
        assertThat(decide(unknown, unknown, unknown).reasons())
                .noneMatch(r -> r.startsWith("CPU-starved"));
    }

    @Test
    void theMedianIsOverTheOperatorsWhoseShareIsKnown() {
        assertThat(
                        CpuStarvation.of(
                                JOB,
                                new OperatorMetrics[] {
                                    source("src", 1, 1_000, 100, 0).withCpuShare(0.1),
                                    op("a", 2, 400, 400).withCpuShare(0.5),
                                    op("b", 2, 400, 400),
                                    op("c", 2, 400, 400).withCpuShare(0.9)
                                }))
                .hasValueSatisfying(r -> assertThat(r).contains("median 50 %"));
    }

    private static ScalingDecision decide(double a, double b, double c) {
        return new Ds2Policy(PolicyConfig.builder().build(), clockAt(END))
                .decide(
                        JOB,
                        window(
                                source("src", 1, 1_000, 100, 0),
                                op("a", 2, 400, 400).withCpuShare(a),
                                op("b", 2, 400, 400).withCpuShare(b),
                                op("c", 2, 400, 400).withCpuShare(c)),
                        ScalingHistory.empty());
    }
}
