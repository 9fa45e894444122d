package dev.flowscale.flink;

import static dev.flowscale.autoscaler.metrics.Counters.seconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How one vertex's metric answers become DS2 counters. The answers have the shape and the values of
 * the word count's source on Flink 2.3 in the side-by-side run (docs/benchmarks.md): back-pressured
 * all window long, 0 ms busy, still emitting.
 */
class VertexMetricsTest {
    private static final String JOB = "ccc347aefe6a2593f0d2e887d15edc2c";
    private static final String SOURCE = "bc764cd8ddf7a0cff126f51c16239658";
    private static final String SPLIT = "4c316878fdbd0126d4087d26baae01f4";
    private static final String OPERATOR = "Source__Sentences";

    private final AtomicReference<String> body = new AtomicReference<>("[]");
    private LoopbackRest server;
    private FlinkRestClient rest;

    @BeforeEach
    void serve() {
        server = new LoopbackRest();
        server.answer("/jobs/", 200, body::get);
        rest = server.client();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String answer(
            String busy, double idle, double backpressured, double in, double out) {
        return String.format(
                "[{\"id\":\"0.accumulateBusyTimeMs\",\"value\":\"%s\"},"
                        + "{\"id\":\"0.accumulateIdleTimeMs\",\"value\":\"%.0f\"},"
                        + "{\"id\":\"0.accumulateBackPressuredTimeMs\",\"value\":\"%.0f\"},"
                        + "{\"id\":\"0.numRecordsIn\",\"value\":\"%.0f\"},"
                        + "{\"id\":\"0.numRecordsOut\",\"value\":\"%.0f\"},"
                        + "{\"id\":\"0.%s.numRecordsOut\",\"value\":\"%.0f\"},"
                        + "{\"id\":\"0.%s.pendingRecords\",\"value\":\"9840\"}]",
                busy, idle, backpressured, in, out, OPERATOR, out, OPERATOR);
    }

    private final MonotoneTimes times = new MonotoneTimes();

    /** One sample of one vertex as {@link FlinkRestMetricsSource} takes it. */
    private InstanceCounts read(String vertex, boolean source, String answer) {
        body.set(answer);
        List<InstanceCounts> counters =
                VertexMetrics.read(
                        rest,
                        JOB,
                        new FlinkVertex(vertex, vertex, 1, 128, "RUNNING"),
                        source ? Optional.of(OPERATOR) : Optional.empty());
        return VertexMetrics.creditSources(times.apply("run", counters), Set.of(SOURCE)).get(0);
    }

    @Test
    void aBackPressuredSourceThatEmitsWithNoBusyTimeStillHasUsefulTimeInTheWindow() {
        InstanceCounts before = read(SOURCE, true, answer("0", 12_000, 75_000, 0, 20_000));
        InstanceCounts after = read(SOURCE, true, answer("0", 12_000, 86_000, 0, 22_040));

        double useful = seconds(after.usefulNanos()) - seconds(before.usefulNanos());
        double emitted = after.recordsIn() - before.recordsIn();
        assertThat(emitted).isEqualTo(2_040);
        assertThat(useful).isPositive();
        assertThat(emitted / useful)
                .as("the source's apparent capacity: bounded, far above any bottleneck")
                .isCloseTo(1 / VertexMetrics.SOURCE_SECONDS_PER_RECORD, within(1.0));
        assertThat(seconds(after.observedNanos()) - seconds(before.observedNanos()))
                .as("useful time stays within the observed time")
                .isGreaterThanOrEqualTo(useful);
        assertThat(after.backlog()).isEqualTo(9_840);
    }

    @Test
    void aSourceWhoseBusyTimeFallsBetweenReadsStillGetsTheCreditForWhatItEmitted() {
        InstanceCounts before = read(SOURCE, true, answer("4", 12_000, 75_000, 0, 20_000));
        InstanceCounts after = read(SOURCE, true, answer("1", 12_000, 86_000, 0, 22_040));

        assertThat(seconds(after.usefulNanos()) - seconds(before.usefulNanos()))
                .as("held at its last value by MonotoneTimes, then credited")
                .isCloseTo(2_040 * VertexMetrics.SOURCE_SECONDS_PER_RECORD, within(1e-9));
    }

    @Test
    void aLegacySourceReportingNaNBusyTimeIsCreditedPerRecordInsteadOfPoisoningTheWindow() {
        InstanceCounts c = read(SOURCE, true, answer("NaN", 0, 0, 0, 5_000));

        assertThat(seconds(c.usefulNanos()))
                .isCloseTo(5_000 * VertexMetrics.SOURCE_SECONDS_PER_RECORD, within(1e-9));
    }

    @Test
    void aNonSourceVertexKeepsExactlyTheBusyTimeFlinkMeasured() {
        InstanceCounts c = read(SPLIT, false, answer("9850", 150, 0, 3_500, 17_500));

        assertThat(seconds(c.usefulNanos())).isEqualTo(9.85);
        assertThat(seconds(c.observedNanos())).isEqualTo(10.0);
        assertThat(c.recordsIn()).isEqualTo(3_500);
    }
}
