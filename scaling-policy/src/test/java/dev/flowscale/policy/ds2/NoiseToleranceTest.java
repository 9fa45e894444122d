package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Noise tolerance keeps a running configuration through measurement noise; sizing never rounds
 * down.
 */
class NoiseToleranceTest {

    private static final PolicyConfig CATCH_UP =
            PolicyConfig.builder()
                    .catchUpDuration(Duration.ofSeconds(600))
                    .expectedRescaleDuration(Duration.ofSeconds(30))
                    .noiseTolerance(0.005)
                    .build();

    /** "op" at parallelism p with 100 rec/s per instance behind a source offering {@code rate}. */
    private static ScalingDecision decide(PolicyConfig config, int p, double rate, double backlog) {
        return new Ds2Policy(config, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:" + p), "src->op"),
                        window(source("src", 1, 100_000, rate, backlog), op("op", p, 100.0 * p, 0)),
                        ScalingHistory.empty());
    }

    @Test
    void sizingRoundsAShortfallOfATenthOfAPercentUp() {
        assertThat(decide(PolicyConfig.exactDs2(), 5, 1001, 0).newParallelism())
                .containsEntry("op", 11);
        assertThat(decide(PolicyConfig.exactDs2(), 14, 1001, 0).newParallelism())
                .containsEntry("op", 11);
    }

    @Test
    void exactDs2RoundsUpAnOperatorNeedingATenthOfAPercentMoreThanItRuns() {
        ScalingDecision d = decide(PolicyConfig.exactDs2(), 10, 1001, 0);

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("op", 11);
    }

    @Test
    void aRunningOperatorWithinTheNoiseOfItsTargetIsKeptWhileNoBacklogBuilds() {
        ScalingDecision d = decide(CATCH_UP, 10, 1003, 500);

        assertThat(d.outcome()).isEqualTo(Outcome.NO_CHANGE);
        assertThat(d.newParallelism()).containsEntry("op", 10);
    }

    @Test
    void aRealShortfallBuildsABacklogThatForcesTheRescale() {
        ScalingDecision d = decide(CATCH_UP, 10, 1003, 5_000);

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism().get("op")).isGreaterThan(10);
        assertThat(d.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                        "rescale needed: source 'src' backlog 5000 records drains"
                                                + " in never"));
    }

    @Test
    void theToleranceMustBeASmallFraction() {
        assertThat(PolicyConfig.exactDs2().noiseTolerance()).isZero();
        assertThatThrownBy(() -> PolicyConfig.builder().noiseTolerance(0.7).build())
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("noiseTolerance");
        assertThatThrownBy(() -> PolicyConfig.builder().noiseTolerance(-0.1).build())
                .isInstanceOf(PolicyException.class);
    }
}
