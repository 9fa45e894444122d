package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** How often instances publish their pending counts follows how long their records take. */
class PendingPublishingTest {
    @Test
    void instancesWithFastRecordsPublishEvery64th() throws Exception {
        JobBuilder job = JobBuilder.named("fast");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .map("fast", x -> x)
                .sink("sink", Sinks.counting());
        assertThat(masksAfterAWhile(job))
                .containsEntry("src", Task.FAST_MASK)
                .containsEntry("fast", Task.FAST_MASK);
    }

    @Test
    void instancesWithSlowRecordsPublishEveryRecord() throws Exception {
        JobBuilder job = JobBuilder.named("slow");
        job.source("src", Sources.generator(RateProfile.constant(1000), seq -> seq))
                .map("slow", x -> x)
                .sink("sink", Sinks.counting());
        job.cost("slow", SyntheticCost.blocking(Duration.ofMillis(2)));
        assertThat(masksAfterAWhile(job)).containsEntry("slow", 0);
    }

    private static Map<String, Integer> masksAfterAWhile(JobBuilder job) throws Exception {
        try (RunningJob running = job.start(JobConfig.defaults())) {
            Thread.sleep(1500);
            return running.tasks().stream()
                    .collect(Collectors.toMap(t -> t.context.operatorId(), t -> t.publishMask));
        }
    }
}
