package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.source.RateProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DS2 paper's word count case on the real engine, scaled down: R = 400 sentences/s,
 * split capacity R/10 per instance, count capacity R words/s per instance, 20 words per
 * sentence, both starting at 1 instance; the optimum is 10 split / 20 count.
 */
class Ds2WordCountIT {
    private static final double R = 400;

    @Test
    void withoutCatchUpItReaches10SplitAnd20CountWithinTwoDecisionsAndCountsExactly(@TempDir Path dir)
            throws Exception {
        try (Ds2Scenario run = new Ds2Scenario(RateProfile.constant(R), R, 10_000,
                Ds2Scenario.policy().catchUpDuration(Duration.ZERO).scaleDownDelay(Duration.ofSeconds(30)).build(),
                Duration.ofSeconds(6), dir)) {
            run.runUntil(s -> s.parallelism().get(WordCount.COUNT) >= 20 && s.parallelism().get(WordCount.SPLIT) >= 10
                    || s.scaleDecisions() >= 2, Duration.ofSeconds(40));
            Ds2Scenario.assertAtOptimum(run.parallelism(), 10, 20, "after the first decisions");
            assertThat(run.scaleDecisions()).as("decisions that scaled").isBetween(1L, 2L);
            run.runUntil(Ds2Scenario::drained, Duration.ofSeconds(60));
            assertThat(run.drained()).as("every sentence processed").isTrue();
            Ds2Scenario.assertAtOptimum(run.parallelism(), 10, 20, "at the end");
            Ds2Scenario.assertNoOscillation(run.trajectory);
            assertThat(run.finalCounts(Duration.ofSeconds(30))).isEqualTo(run.expectedCounts());
        }
    }

    @Test
    void withCatchUpTheBacklogDrainsAndTheJobSettlesWhereItAbsorbsItsOwnRescale(@TempDir Path dir) throws Exception {
        Duration catchUp = Duration.ofSeconds(40);
        try (Ds2Scenario run = new Ds2Scenario(RateProfile.constant(R), R, 30_000,
                Ds2Scenario.policy().catchUpDuration(catchUp).scaleDownDelay(Duration.ofSeconds(5)).build(),
                Duration.ofSeconds(6), dir)) {
            run.runUntil(s -> !s.rescales.isEmpty(), Duration.ofSeconds(30));
            assertThat(run.rescales).as("a first rescale").isNotEmpty();
            long rescaled = System.nanoTime();
            run.runUntil(s -> s.backlog() < R, catchUp.multipliedBy(2));
            double drainSeconds = (System.nanoTime() - rescaled) / 1e9;
            System.out.printf("backlog drained %.1f s after the first rescale (catch-up %d s)%n", drainSeconds,
                    catchUp.toSeconds());
            assertThat(drainSeconds).as("backlog drained within the catch-up time (+ one policy interval)")
                    .isLessThan(catchUp.toSeconds() + 6.0);
            // settled: the smallest configuration whose spare drains its own rescale (about 3 s down
            // here) within the catch-up time: 10 and 20 raised by 3 / 40, one more for measurement
            run.runUntil(s -> s.parallelism().get(WordCount.SPLIT) <= 12 && s.parallelism().get(WordCount.COUNT) <= 23,
                    Duration.ofSeconds(40));
            int settledAt = run.trajectory.size();
            run.runUntil(s -> false, Duration.ofSeconds(15));
            Map<String, Integer> settled = run.parallelism();
            assertThat(settled.get(WordCount.SPLIT)).as("split settles").isBetween(10, 12);
            assertThat(settled.get(WordCount.COUNT)).as("count settles").isBetween(20, 23);
            assertThat(run.trajectory.size()).as("no rescale after settling").isEqualTo(settledAt);
            // the catch-up peak is the planned overshoot; from there on the job only comes down
            Ds2Scenario.assertNoOscillation(run.trajectory.subList(1, run.trajectory.size()));
            run.runUntil(Ds2Scenario::drained, Duration.ofSeconds(60));
            assertThat(run.drained()).as("every sentence processed").isTrue();
            assertThat(run.finalCounts(Duration.ofSeconds(30))).isEqualTo(run.expectedCounts());
        }
    }
}
