package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class CoreWaitTest {

    private static final JobTopology WORD_COUNT =
            topology(List.of("src:1", "split:1", "count:1"), "src->split", "split->count");

    /** The paper's word count: 400 sentences/s, split 40/s per instance, 20 words a sentence. */
    private static ScalingDecision decide(Double splitWait, Double countWait) {
        double splitSlowdown = splitWait == null ? 1 : 1 - splitWait;
        double countSlowdown = countWait == null ? 1 : 1 - countWait;
        OperatorMetrics split =
                OperatorMetrics.of("split", 1, 40 * splitSlowdown, 800 * splitSlowdown, 40, 800)
                        .withCoreWaitShare(splitWait);
        OperatorMetrics count =
                OperatorMetrics.of("count", 1, 400 * countSlowdown, 0, 400, 0)
                        .withCoreWaitShare(countWait);
        return new Ds2Policy(PolicyConfig.builder().coreWaitCorrection(true).build(), clockAt(END))
                .decide(
                        WORD_COUNT,
                        window(source("src", 1, 10_000, 400, 0), split, count),
                        ScalingHistory.empty());
    }

    private static Map<String, Integer> parallelism(ScalingDecision d) {
        return d.operators().values().stream()
                .collect(
                        Collectors.toMap(
                                OperatorDecision::operatorId, OperatorDecision::newParallelism));
    }

    @Test
    void whenThreadsWaitedForCores_thenTheDecisionIsTheQuietMachinesAndSaysItIsCpuStarved() {
        ScalingDecision quiet = decide(null, null);
        ScalingDecision loaded = decide(0.6, 0.3);
        assertThat(parallelism(quiet)).containsEntry("split", 10).containsEntry("count", 20);
        assertThat(parallelism(loaded)).isEqualTo(parallelism(quiet));
        assertThat(loaded.reasons())
                .anyMatch(
                        r ->
                                r.startsWith("CPU-starved: operator 'split' waited for a core 60 %")
                                        && r.contains("its capacity ×2.50")
                                        && r.contains(
                                                "more CPU per pod (an in-place resize) serves better"));
        assertThat(quiet.reasons()).noneMatch(r -> r.startsWith("CPU-starved"));
    }

    @Test
    void aWaitOfNoteOnlyIsReported_andAnyMeasuredWaitIsCorrected() {
        ScalingDecision slight = decide(0.05, 0.05);
        assertThat(slight.reasons()).noneMatch(r -> r.startsWith("CPU-starved"));
        assertThat(slight.operators().get("split").capacityPerInstance())
                .isCloseTo(40, Offset.offset(1e-9));
    }

    @Test
    void aWindowOfAlmostNothingButWaitingMultipliesACapacityByFiftyAtMost() {
        OperatorMetrics waited =
                OperatorMetrics.of("split", 1, 4, 80, 1, 20).withCoreWaitShare(0.995);
        OperatorMetrics corrected =
                CoreWait.corrected(window(waited)).metrics("split").orElseThrow();
        assertThat(corrected.trueProcessingRate()).isCloseTo(200, Offset.offset(1e-9));
        assertThat(corrected.trueOutputRate()).isCloseTo(4000, Offset.offset(1e-9));
        assertThat(corrected.observedProcessingRate()).isEqualTo(1);
    }
}
