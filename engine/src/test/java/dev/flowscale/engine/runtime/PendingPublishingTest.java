package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.testsupport.Await;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * How often instances publish their pending counts follows how long their records take: about every
 * 64 µs of work.
 */
class PendingPublishingTest {
    @Test
    void instancesWithFastRecordsPublishOncePerBatch() throws Exception {
        JobBuilder job = JobBuilder.named("fast");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .map("fast", x -> x)
                .sink("sink", Sinks.counting());
        // Tens of ns per record: a publish interval of hundreds of records (more than 127 even
        // when a loaded machine stretches a record's wall time tenfold), a batch's end before it.
        Map<String, Integer> masks =
                masksOnceTuned(job, m -> m.get("src") > 127 && m.get("fast") > 127);
        assertThat(masks.get("fast") & (masks.get("fast") + 1))
                .as("a power of two less one")
                .isZero();
    }

    @Test
    void instancesWithSlowRecordsPublishEveryRecord() throws Exception {
        JobBuilder job = JobBuilder.named("slow");
        job.source("src", Sources.generator(RateProfile.constant(1000), seq -> seq))
                .map("slow", x -> x)
                .sink("sink", Sinks.counting());
        job.cost("slow", SyntheticCost.blocking(Duration.ofMillis(2)));
        // Every instance starts at 0: wait until the fast ones were tuned, then "slow" must be 0.
        assertThat(masksOnceTuned(job, m -> m.get("sink") > 0)).containsEntry("slow", 0);
    }

    @Test
    void thePublishIntervalCoversAtMost64MicrosecondsOfWork() {
        assertThat(Task.publishMaskFor(36_000, 1_000)).isEqualTo(1023);
        assertThat(Task.publishMaskFor(1_000_000, 1_000)).isEqualTo(63);
        assertThat(Task.publishMaskFor(2_000_000, 1_000)).isEqualTo(31);
        assertThat(Task.publishMaskFor(64_000, 1)).isZero();
        assertThat(Task.publishMaskFor(2_000_000, 1)).isZero();
        assertThat(Task.publishMaskFor(1_000, 1_000)).isEqualTo(32_767);
        assertThat(Task.publishMaskFor(0, 1_000)).isEqualTo(32_767);
    }

    @Test
    void instancesRetuneWithinMillisecondsOfTheirFirstBatchThenEveryFifthOfASecond() {
        long elapsed = 0;
        long interval = Task.FIRST_TUNE_NANOS;
        int retunes = 0;
        while (interval < Task.TUNE_EVERY_NANOS) {
            elapsed += interval;
            interval = Task.nextTuneInterval(interval);
            retunes++;
        }
        assertThat(Task.FIRST_TUNE_NANOS).isLessThanOrEqualTo(5_000_000L);
        assertThat(retunes).isEqualTo(6);
        assertThat(elapsed).isEqualTo(252_000_000L);
        assertThat(Task.nextTuneInterval(Task.TUNE_EVERY_NANOS)).isEqualTo(Task.TUNE_EVERY_NANOS);
    }

    /**
     * The instances' publish masks once {@code tuned} holds: each instance retunes from a sample of
     * its counters every so often, which on a loaded machine may take a while.
     */
    private static Map<String, Integer> masksOnceTuned(
            JobBuilder job, Predicate<Map<String, Integer>> tuned) throws Exception {
        try (RunningJob running = job.start(JobConfig.defaults())) {
            return Await.until(
                    Duration.ofSeconds(60),
                    "the publish masks to be tuned",
                    () ->
                            running.tasks().stream()
                                    .collect(
                                            Collectors.toMap(
                                                    t -> t.context.operatorId(),
                                                    t -> t.publishMask)),
                    tuned);
        }
    }
}
