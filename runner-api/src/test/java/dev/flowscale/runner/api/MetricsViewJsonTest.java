package dev.flowscale.runner.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The per-key-group counts of {@code GET /api/v1/metrics} are additive: old bodies still parse. */
class MetricsViewJsonTest {
    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final String COUNTERS =
            "\"operatorId\":\"count\",\"instance\":1,\"timeNanos\":5,"
                    + "\"observedNanos\":4,\"recordsIn\":30,\"recordsOut\":30,\"usefulNanos\":2,\"waitInputNanos\":1,"
                    + "\"backpressureNanos\":1,\"backlog\":0,\"finished\":false";

    @Test
    void anInstancesKeyGroupCountsRoundTripThroughJson() throws Exception {
        MetricsView.InstanceCounts counts =
                JSON.readValue(
                        "{" + COUNTERS + ",\"keyGroupFirst\":64,\"keyGroupRecords\":[10,0,20]}",
                        MetricsView.InstanceCounts.class);

        assertThat(counts.keyGroupFirst()).isEqualTo(64);
        assertThat(counts.keyGroupRecords()).containsExactly(10, 0, 20);
        assertThat(JSON.readTree(JSON.writeValueAsString(counts)).get("keyGroupRecords").toString())
                .isEqualTo("[10,0,20]");
    }

    @Test
    void aBodyFromARunnerThatCountsNoKeyGroupsReadsAsNoneCounted() throws Exception {
        MetricsView.InstanceCounts counts =
                JSON.readValue("{" + COUNTERS + "}", MetricsView.InstanceCounts.class);

        assertThat(counts.keyGroupFirst()).isZero();
        assertThat(counts.keyGroupRecords()).isEmpty();
    }

    @Test
    void aSourceWithoutABacklogSignalCarriesANullBacklogAndNoSecondEncoding() throws Exception {
        MetricsView.InstanceCounts counts =
                JSON.readValue(
                        "{" + COUNTERS.replace("\"backlog\":0", "\"backlog\":null") + "}",
                        MetricsView.InstanceCounts.class);

        assertThat(counts.backlog()).isNull();
        var written = JSON.readTree(JSON.writeValueAsString(counts));
        assertThat(written.get("backlog").isNull()).isTrue();
        assertThat(written.get("backlogUnknown").asBoolean())
                .as("the flag an autoscaler of an earlier release reads")
                .isTrue();
    }

    @Test
    void aRunnerOfAnEarlierReleaseSayingItsBacklogIsUnknownIsReadAsNoSignal() throws Exception {
        MetricsView.InstanceCounts counts =
                JSON.readValue(
                        "{" + COUNTERS + ",\"backlogUnknown\":true}",
                        MetricsView.InstanceCounts.class);

        assertThat(counts.backlog()).isNull();
    }

    @Test
    void aKnownBacklogOfZeroStaysZero() throws Exception {
        MetricsView.InstanceCounts counts =
                JSON.readValue("{" + COUNTERS + "}", MetricsView.InstanceCounts.class);

        assertThat(counts.backlog()).isZero();
        assertThat(JSON.readTree(JSON.writeValueAsString(counts)).get("backlogUnknown").asBoolean())
                .isFalse();
    }
}
