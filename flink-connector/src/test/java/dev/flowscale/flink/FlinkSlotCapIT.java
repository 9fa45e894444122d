package dev.flowscale.flink;

import static dev.flowscale.flink.FlinkRestMetricsSourceIT.COUNT;
import static dev.flowscale.flink.FlinkRestMetricsSourceIT.SOURCE;
import static dev.flowscale.flink.FlinkRestMetricsSourceIT.SPLIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A decision never asks a Flink cluster for more task slots than it has, on a real Flink 2.3
 * MiniCluster of 4 slots: the word count at 1/1/1 under 200 sentences/s with Count blocking 6 ms
 * per word needs at least 6 Count instances (1,000 words/s at most 167/s each), so DS2 asks for
 * more than 4; the slot-bound policy caps Count at the cluster's 4 slots (all vertices share one
 * slot-sharing group), its reasons say why, and the rescale runs in place at what was decided
 * instead of waiting for slots that never come and rolling back.
 */
@Tag("flink-rescale")
class FlinkSlotCapIT {
    private static final int SLOTS = 4;

    @Test
    void aDecisionAskingMoreThanTheClustersSlotsIsCappedAtThemSaysWhyAndRuns() throws Exception {
        try (LocalFlinkCluster flink = LocalFlinkCluster.start(SLOTS, true)) {
            FlinkJobRef job = FlinkInPlaceRescaleIT.submit(flink, "slot-cap", 6000);
            FlinkRestClient rest = job.rest();
            FlinkRestMetricsSource source = new FlinkRestMetricsSource(job, Clock.systemUTC());
            WindowedMetricsProvider windows =
                    new WindowedMetricsProvider(
                            source,
                            new WindowSettings(Duration.ofSeconds(3), Duration.ofSeconds(2)),
                            List.of());
            FlinkInPlaceRescaleIT.awaitWindow(windows, "a complete window");

            ScalingDecision decision =
                    new SlotBoundPolicy(
                                    new Ds2Policy(PolicyConfig.exactDs2(), Clock.systemUTC()),
                                    source::slotLimit)
                            .decide(
                                    windows.topology(),
                                    windows.currentWindow().orElseThrow(),
                                    ScalingHistory.empty());

            OperatorDecision count = decision.operators().get(COUNT);
            assertThat(count.newParallelism()).as(decision.explain()).isEqualTo(SLOTS);
            assertThat(count.reasons())
                    .last()
                    .asString()
                    .as("DS2 asked for at least 1,000 words/s / 167 per instance")
                    .containsPattern("capped at 4 by task slots \\(asked ([6-9]|\\d\\d+)\\)")
                    .contains("has 4 task slots on 1 TaskManager(s), none held by other jobs");
            assertThat(decision.reasons())
                    .anySatisfy(r -> assertThat(r).contains("the job may use 4"));
            assertThat(decision.operators().get(SPLIT).newParallelism()).isBetween(2, SLOTS);
            assertThat(decision.operators().get(SOURCE).newParallelism()).isEqualTo(1);

            List<RescaleReport> reports = new CopyOnWriteArrayList<>();
            try (FlinkRescaler rescaler =
                    new FlinkRescaler(
                            job,
                            Optional.empty(),
                            Duration.ofSeconds(60),
                            Clock.systemUTC(),
                            List.of(reports::add))) {
                rescaler.realize(decision).toCompletableFuture().get(90, TimeUnit.SECONDS);
                assertThat(reports)
                        .singleElement()
                        .satisfies(r -> assertThat(r.succeeded()).isTrue());
                assertThat(job.read().parallelism()).isEqualTo(decision.newParallelism());
                assertThat(job.read().parallelism()).containsEntry(COUNT, SLOTS);
                assertThat(TaskSlots.heldByOtherJobs(rest, job.jobId()))
                        .as("Flink lists the TaskManager's allocated slots with their job ids")
                        .hasValue(0);

                // scaled down, the job may keep its idle slots a while: they are still its own
                rescaler.realize(byHand(decision.jobName(), 2))
                        .toCompletableFuture()
                        .get(90, TimeUnit.SECONDS);
            }
            SlotLimit after = SlotLimits.cluster(rest).of(job.read()).orElseThrow();
            assertThat(after.slots()).as(after.why()).isEqualTo(SLOTS);
            assertThat(after.why()).contains("none held by other jobs");
        }
    }

    private static ScalingDecision byHand(String job, int count) {
        return ScalingDecision.of(
                Instant.now(),
                job,
                List.of("by hand"),
                List.of(new OperatorDecision(COUNT, SLOTS, count, count, 0, 0, 0, 0, List.of())));
    }
}
