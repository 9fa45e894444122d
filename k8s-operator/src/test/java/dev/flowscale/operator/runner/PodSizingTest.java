package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.SlotResources;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.ReconcileStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodSizingTest {

    @Test
    void aPodIsSizedForItsTotalParallelismPlusTheHeadroomRoundedUp() {
        SlotResources slot = new SlotResources();
        slot.headroom = 0.5;

        assertThat(PodSizing.slots(slot, Map.of("split", 2, "count", 3))).isEqualTo(8);
        slot.headroom = 0;
        assertThat(PodSizing.slots(slot, Map.of("split", 2, "count", 3))).isEqualTo(5);
    }

    @Test
    void aRescaleFitsThePodWhenItsTotalParallelismIsWithinTheSlotsThePodWasSizedFor() {
        SlotResources slot = new SlotResources();
        slot.headroom = 1.0;
        Map<String, Integer> deployed = Map.of("split", 1, "count", 1);

        assertThat(PodSizing.covers(slot, deployed, Map.of("split", 3, "count", 1))).isTrue();
        assertThat(PodSizing.covers(slot, deployed, Map.of("split", 4, "count", 1))).isFalse();
    }

    @Test
    void withoutHeadroomOnlyAScaleDownFitsThePod() {
        SlotResources slot = new SlotResources();
        Map<String, Integer> deployed = Map.of("split", 2, "count", 3);

        assertThat(PodSizing.covers(slot, deployed, Map.of("split", 1, "count", 3))).isTrue();
        assertThat(PodSizing.covers(slot, deployed, Map.of("split", 3, "count", 3))).isFalse();
    }

    @Test
    void theTargetIsTheSpecOverlaidWithTheAutoscalersParallelismExceptWhereTheUserChangedTheSpec() {
        StreamJob job = StreamJobs.wordCount("jobs", "wc");
        ReconcileStatus.statusOf(job).specParallelism.putAll(Map.of("split", 2, "count", 3));
        job.getStatus().desiredParallelism.putAll(Map.of("split", 5, "count", 7));
        job.getSpec().parallelism.put("count", 4);

        assertThat(RunnerExecutor.target(job))
                .containsExactly(Map.entry("count", 4), Map.entry("split", 5));
    }
}
