package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.source.RateProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DS2 word count on the real engine follows a load step: the source rate triples, then
 * halves. Each instance of split handles 40 sentences/s and each count instance 400 words/s
 * (20 words per sentence), so the optimum is 3/5 at 100/s, 8/15 at 300/s and 4/8 at 150/s.
 */
class LoadStepIT {
    private static final double CAPACITY = 400;

    @Test
    void theJobFollowsAStepUpAndAStepDownWithinThreeDecisionsEachWithoutOscillating(@TempDir Path dir)
            throws Exception {
        RateProfile steps = RateProfile.parse("steps:0s=100,25s=300,65s=150");
        try (Ds2Scenario run = new Ds2Scenario(steps, CAPACITY, Long.MAX_VALUE,
                Ds2Scenario.policy().catchUpDuration(Duration.ZERO).scaleDownDelay(Duration.ofSeconds(5)).build(),
                Duration.ofSeconds(6), dir, Map.of(WordCount.SPLIT, 3, WordCount.COUNT, 5))) {
            Phase base = phase(run, 25);
            Phase up = phase(run, 65);
            Phase down = phase(run, 100);
            Ds2Scenario.assertAtOptimum(base.end(), 3, 5, "at 100/s");
            Ds2Scenario.assertAtOptimum(up.end(), 8, 15, "after the step up to 300/s");
            Ds2Scenario.assertAtOptimum(down.end(), 4, 8, "after the step down to 150/s");
            for (Phase phase : List.of(base, up, down)) {
                assertThat(phase.rescales()).as("rescales in a phase").isLessThanOrEqualTo(3);
                Ds2Scenario.assertNoOscillation(run.trajectory.subList(phase.from(), run.trajectory.size()).subList(0,
                        phase.rescales() + 1));
            }
        }
    }

    /** What happened in one load phase: where its trajectory starts, how many rescales, where it ended. */
    private record Phase(int from, int rescales, Map<String, Integer> end) {
    }

    private static Phase phase(Ds2Scenario run, double untilSeconds) throws InterruptedException {
        int from = run.trajectory.size() - 1;
        run.runUntil(s -> s.job.elapsed() >= untilSeconds, Duration.ofSeconds(120));
        return new Phase(from, run.trajectory.size() - 1 - from, run.parallelism());
    }
}
