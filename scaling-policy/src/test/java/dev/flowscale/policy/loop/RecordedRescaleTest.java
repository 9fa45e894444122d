package dev.flowscale.policy.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.RecordingRealizer;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.sim.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * A loop whose realizer only records the target (the operator's status) learns each rescale's end,
 * measured downtime and path from that record on its ticks, also for a rescale an earlier loop of
 * the job started; nothing calls it back.
 */
class RecordedRescaleTest {
    private final ManualClock clock = new ManualClock(OverloadedJob.T0);
    private final List<Throwable> errors = new ArrayList<>();
    private final Recording recording = new Recording();

    @Test
    void theRescaleStaysInProgressUntilItsRecordShowsTheEnd() {
        AutoscalerLoop loop = autoscaler(recording);

        loop.tick();
        clock.advance(Duration.ofSeconds(1));
        loop.tick();

        assertThat(recording.realized).as("the target was recorded").hasSize(1);
        assertThat(loop.history().rescaleInProgress())
                .as("recorded is not done: the executor has not run it yet")
                .isTrue();
        RescaleRecord started = loop.history().lastRescale().orElseThrow();
        recording.end = Optional.of(measured(started, "in-place", Duration.ofMillis(800)));
        clock.advance(Duration.ofSeconds(1));
        loop.tick();

        assertThat(loop.history().lastRescale()).isEqualTo(recording.end);
        assertThat(loop.rescaleDurations()).containsExactly(Duration.ofMillis(800));
        assertThat(errors).isEmpty();
    }

    @Test
    void aRescaleAnEarlierLoopStartedIsFollowedThroughTheRecord() {
        AutoscalerLoop first = autoscaler(recording);
        first.tick();
        ScalingHistory stored = first.history();

        Recording next = new Recording();
        AutoscalerLoop resumed = autoscaler(next);
        resumed.restore(stored);
        assertThat(resumed.history().rescaleInProgress()).isTrue();
        next.end =
                Optional.of(
                        measured(
                                stored.lastRescale().orElseThrow(),
                                "pod-replacement",
                                Duration.ofSeconds(7)));
        resumed.tick();

        assertThat(resumed.history().lastRescale()).isEqualTo(next.end);
        assertThat(next.realized).as("the new loop did not rescale again").isEmpty();
    }

    @Test
    void aRealizerThatCannotFollowARestoredRescaleRecordsItAsFailed() {
        AutoscalerLoop first = autoscaler(recording);
        first.tick();
        ScalingRealizer plain = decision -> new CompletableFuture<>();

        AutoscalerLoop resumed = autoscaler(plain);
        resumed.restore(first.history());

        assertThat(resumed.history().lastRescale().orElseThrow().failed()).isTrue();
        assertThat(errors)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("cannot be followed"));
    }

    @Test
    void aTargetThatCannotBeRecordedEndsTheRescaleAsFailed() {
        recording.refuse = true;
        AutoscalerLoop loop = autoscaler(recording);

        loop.tick();

        assertThat(loop.history().lastRescale().orElseThrow().failed()).isTrue();
        assertThat(errors).hasSize(1);
    }

    private static RescaleRecord measured(RescaleRecord started, String path, Duration downtime) {
        Instant end = started.started().plusSeconds(30);
        return new RescaleRecord(
                end.minus(downtime), Optional.of(end), started.target(), false, path);
    }

    private AutoscalerLoop autoscaler(ScalingRealizer realizer) {
        return OverloadedJob.loop(realizer, clock, errors::add);
    }

    /** Records targets; its executor's record of the end is what the test sets. */
    private static final class Recording implements RecordingRealizer {
        final List<ScalingDecision> realized = new ArrayList<>();
        Optional<RescaleRecord> end = Optional.empty();
        boolean refuse;

        @Override
        public CompletionStage<Void> realize(ScalingDecision decision) {
            if (refuse) {
                return CompletableFuture.failedFuture(
                        new IllegalStateException("the job was deleted"));
            }
            realized.add(decision);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public Optional<RescaleRecord> outcome(RescaleRecord started) {
            return end;
        }
    }
}
