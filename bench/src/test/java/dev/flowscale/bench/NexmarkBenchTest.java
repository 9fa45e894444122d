package dev.flowscale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class NexmarkBenchTest {

    @Test
    void byDefaultEveryQueryRunsFiveTimesAtParallelismOneAndTwoOnBothEngines() {
        NexmarkOptions options = NexmarkOptions.parse(new String[0]);

        assertThat(options.queries()).containsExactly("q1", "q2", "q3", "q5", "q8", "q11");
        assertThat(options.parallelisms()).containsExactly(1, 2);
        assertThat(options.contenders()).containsExactly("flowscale", "flink");
        assertThat(options.runs()).isEqualTo(5);
    }

    @Test
    void aBadOptionIsNamedWithTheFix() {
        assertThatThrownBy(() -> NexmarkOptions.parse(new String[] {"--queries", "q1,q9"}))
                .hasMessageContaining("'q9'")
                .hasMessageContaining("q1,q2,q3,q5,q8,q11");
        assertThatThrownBy(() -> NexmarkOptions.parse(new String[] {"--parallelism", "1,0"}))
                .hasMessageContaining("--parallelism is '0'");
        assertThatThrownBy(() -> NexmarkOptions.parse(new String[] {"--window", "10"}))
                .hasMessageContaining("unknown option --window");
    }

    @Test
    void theFlowscaleJobRunsEveryOperatorAtTheGivenParallelism() {
        for (String query : NexmarkBench.QUERIES) {
            assertThat(NexmarkBench.flowscaleJob(query, 1_000, 2).parallelism().values())
                    .as(query)
                    .isNotEmpty()
                    .allMatch(p -> p == 2);
        }
    }

    @Test
    void batchesFromSeveralThreadsStampTheFirstBatchesPastEachMark() throws Exception {
        SinkMeter meter = SinkMeter.arm(10_000, 0.2);
        List<Thread> threads =
                List.of(
                        new Thread(NexmarkBenchTest::sixtyBatches),
                        new Thread(NexmarkBenchTest::sixtyBatches));
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }

        assertThat(meter.complete()).isTrue();
        // batches of 100: the stamps fall at 2,000 and 10,000 records exactly
        assertThat(meter.measuredRecords()).isEqualTo(8_000);
        assertThat(meter.count()).isEqualTo(12_000);
    }

    private static void sixtyBatches() {
        for (int i = 0; i < 60; i++) {
            SinkMeter.recordBatch(100);
        }
    }
}
