package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.source.RateProfile;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DS2 paper's word count case on the real engine, scaled down: R = 400 sentences/s, split
 * capacity R/10 per instance, count capacity R words/s per instance, 20 words per sentence, both
 * starting at 1 instance; the optimum is 10 split / 20 count.
 *
 * <p>What only the real engine shows: the optimum is reached on measured rates, and every word is
 * counted exactly once across the rescales. The policy's behaviour alone is shown in the simulator
 * (scaling-policy's {@code WordCountSimulationTest}: one decision to the optimum; catch-up drains
 * the backlog within its time and settles without oscillating; {@code StepChangeSimulationTest}:
 * load steps up and down). Catch-up draining on the real engine is {@link
 * Ds2CatchUpAtClusterRescaleCostIT}.
 */
class Ds2WordCountIT {
    private static final double R = 400;

    @Test
    void withoutCatchUpItReaches10SplitAnd20CountWithinTwoDecisionsAndCountsExactly(
            @TempDir Path dir) throws Exception {
        try (Ds2Scenario run =
                new Ds2Scenario(
                        RateProfile.constant(R),
                        R,
                        10_000,
                        Ds2Scenario.policy()
                                .catchUpDuration(Duration.ZERO)
                                .scaleDownDelay(Duration.ofSeconds(30))
                                .build(),
                        Duration.ofSeconds(6),
                        dir)) {
            run.runUntil(
                    "10 split and 20 count, or two decisions to scale",
                    s ->
                            s.parallelism().get(WordCount.COUNT) >= 20
                                            && s.parallelism().get(WordCount.SPLIT) >= 10
                                    || s.scaleDecisions() >= 2,
                    Duration.ofSeconds(40));
            Ds2Scenario.assertAtOptimum(run.parallelism(), 10, 20, "after the first decisions");
            assertThat(run.scaleDecisions()).as("decisions that scaled").isBetween(1L, 2L);
            run.runUntil("every sentence processed", Ds2Scenario::drained, Duration.ofSeconds(60));
            Ds2Scenario.assertAtOptimum(run.parallelism(), 10, 20, "at the end");
            Ds2Scenario.assertNoOscillation(run.trajectory);
            assertThat(run.finalCounts(Duration.ofSeconds(30))).isEqualTo(run.expectedCounts());
        }
    }
}
