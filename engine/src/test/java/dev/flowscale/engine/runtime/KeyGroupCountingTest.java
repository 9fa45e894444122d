package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.testing.HotKeyJob;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Each keyed instance counts the records it processes per key group of the range it owns. */
class KeyGroupCountingTest {
    private static final int KEY_GROUPS = 16;
    private static final long RECORDS = 20_000;

    private static JobMetricsSnapshot runToTheEnd(JobConfig config) throws Exception {
        JobBuilder job =
                HotKeyJob.build(
                        JobBuilder.named("keygroups"), Sources.sequence(RECORDS), KEY_GROUPS, 3);
        try (RunningJob running = job.start(config)) {
            assertThat(running.await(Duration.ofSeconds(15))).as("job finished").isTrue();
            return running.metrics();
        }
    }

    @Test
    void aKeyedInstanceCountsExactlyTheRecordsOfEachKeyGroupItOwns() throws Exception {
        JobMetricsSnapshot metrics = runToTheEnd(JobConfig.defaults().withBatchSize(16));
        long[] expected = HotKeyJob.sentPerKeyGroup(RECORDS, KEY_GROUPS);

        for (InstanceCounts instance : metrics.instancesOf(HotKeyJob.KEYED)) {
            KeyGroupRange owned = KeyGroups.rangeFor(instance.instance(), KEY_GROUPS, 3);
            assertThat(instance.keyGroupFirst()).isEqualTo(owned.start());
            assertThat(instance.keyGroupRecords())
                    .containsExactly(
                            Arrays.copyOfRange(expected, owned.start(), owned.endInclusive() + 1));
            assertThat(Arrays.stream(instance.keyGroupRecords()).sum())
                    .isEqualTo(instance.recordsIn());
        }
        assertThat(metrics.instancesOf(HotKeyJob.SOURCE))
                .allSatisfy(i -> assertThat(i.keyGroupRecords()).isEmpty());
    }

    @Test
    void anUninstrumentedJobCountsNoKeyGroups() throws Exception {
        JobMetricsSnapshot metrics = runToTheEnd(JobConfig.defaults().withInstrumentation(false));

        assertThat(metrics.instancesOf(HotKeyJob.KEYED))
                .allSatisfy(i -> assertThat(Arrays.stream(i.keyGroupRecords()).sum()).isZero());
    }
}
