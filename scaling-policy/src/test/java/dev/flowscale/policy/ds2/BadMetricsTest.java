package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.START;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BadMetricsTest {

    private static final JobTopology JOB = topology(List.of("src:1", "op:2"), "src->op");
    private static final OperatorMetrics SRC = source("src", 1, 5000, 1000, 0);

    private static ScalingDecision decide(MetricsWindow w) {
        return new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END))
                .decide(JOB, w, ScalingHistory.empty());
    }

    private static void assertBlocked(ScalingDecision d, BlockReason why, String explanation) {
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.blockReason()).contains(why);
        assertThat(d.reasons()).singleElement().asString().contains(explanation);
        assertThat(d.operators()).isEmpty();
    }

    @Test
    void blocksWhenAnOperatorHasNoMetrics() {
        assertBlocked(
                decide(window(SRC)), BlockReason.METRICS_MISSING, "operator 'op' has no metrics");
    }

    @Test
    void blocksWhenTheWindowIsStale() {
        ScalingDecision d =
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END.plusSeconds(301)))
                        .decide(JOB, window(SRC, op("op", 2, 200, 200)), ScalingHistory.empty());

        assertBlocked(d, BlockReason.METRICS_STALE, "ended 301 s ago");
    }

    @Test
    void blocksWhenKeyGroupRatesDoNotCoverTheKeyGroups() {
        OperatorMetrics three = op("op", 2, 200, 200).withKeyGroupRates(List.of(1.0, 2.0, 3.0));

        assertBlocked(
                decide(window(SRC, three)),
                BlockReason.METRICS_INVALID,
                "reports rates of 3 key groups but has 128 (its max parallelism)");
    }

    @Test
    void blocksWhenAKeyGroupRateIsNotANumber() {
        List<Double> rates = new java.util.ArrayList<>(java.util.Collections.nCopies(128, 1.0));
        rates.set(5, Double.NaN);

        assertBlocked(
                decide(window(SRC, op("op", 2, 200, 200).withKeyGroupRates(rates))),
                BlockReason.METRICS_INVALID,
                "key group 5 rate is NaN");
    }

    @Test
    void blocksWhenMetricsWereMeasuredAtAnotherParallelism() {
        assertBlocked(
                decide(window(SRC, op("op", 3, 300, 300))),
                BlockReason.METRICS_STALE,
                "measured at parallelism 3 but it runs at 2");
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, -1})
    void blocksOnANonFiniteOrNegativeRate(double bad) {
        assertBlocked(
                decide(window(SRC, op("op", 2, bad, 200))),
                BlockReason.METRICS_INVALID,
                "operator 'op' trueProcessingRate is");
    }

    @Test
    void blocksOnANegativeBacklog() {
        assertBlocked(
                decide(window(source("src", 1, 5000, 1000, -5), op("op", 2, 200, 200))),
                BlockReason.METRICS_INVALID,
                "operator 'src' backlogRecords is negative");
    }

    @Test
    void blocksWhenRecordsWereProcessedWithZeroUsefulTime() {
        OperatorMetrics zeroUseful = OperatorMetrics.of("op", 2, 0, 0, 150, 150);

        assertBlocked(
                decide(window(SRC, zeroUseful)), BlockReason.METRICS_INVALID, "zero useful time");
    }

    @Test
    void blocksWhenTheUsefulTimeWouldExceedTheWindow() {
        OperatorMetrics tooBusy = OperatorMetrics.of("op", 2, 100, 100, 150, 150);

        assertBlocked(
                decide(window(SRC, tooBusy)),
                BlockReason.METRICS_INVALID,
                "true rate below observed rate");
    }

    @Test
    void blocksWhenInstanceValuesDoNotAddUp() {
        OperatorMetrics m =
                op("op", 2, 200, 200)
                        .withInstances(
                                List.of(
                                        new InstanceWindowRates(0, 100, 100, 50, 50),
                                        new InstanceWindowRates(1, 50, 50, 50, 50)));

        assertBlocked(
                decide(window(SRC, m)),
                BlockReason.METRICS_INVALID,
                "sum to 150.0 but the aggregate is 200.0");
    }

    @Test
    void blocksWhenTheNumberOfInstancesDiffersFromTheParallelism() {
        OperatorMetrics m =
                op("op", 2, 200, 200)
                        .withInstances(List.of(new InstanceWindowRates(0, 200, 200, 50, 50)));

        assertBlocked(
                decide(window(SRC, m)),
                BlockReason.METRICS_INVALID,
                "reports 1 instances at parallelism 2");
    }

    @Test
    void blocksOnANaNInstanceValue() {
        OperatorMetrics m =
                op("op", 2, 200, 200)
                        .withInstances(
                                List.of(
                                        new InstanceWindowRates(0, 100, 100, 50, 50),
                                        new InstanceWindowRates(1, 100, Double.NaN, 50, 50)));

        assertBlocked(
                decide(window(SRC, m)),
                BlockReason.METRICS_INVALID,
                "operator 'op' instance 1 trueOutputRate is NaN");
    }

    @Test
    void blocksWhenASourceReportsNoOfferedRate() {
        OperatorMetrics plain = OperatorMetrics.of("src", 1, 5000, 5000, 1000, 1000);

        assertBlocked(
                decide(window(plain, op("op", 2, 200, 200))),
                BlockReason.METRICS_MISSING,
                "source 'src' reports no offered rate");
    }

    @Test
    void blocksWhenAnOperatorThatMustProcessRecordsProcessedNone() {
        assertBlocked(
                decide(window(SRC, op("op", 2, 0, 0))),
                BlockReason.METRICS_MISSING,
                "operator 'op' processed no records in the window but must process 1000.0 rec/s");
    }

    @Test
    void rejectsAWindowThatDoesNotEndAfterItsStart() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> MetricsWindow.of(START, START, List.of()))
                .isInstanceOf(dev.flowscale.policy.PolicyException.class)
                .hasMessageContaining("positive length");
    }
}
