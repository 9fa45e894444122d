package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.testing.Samples;
import dev.flowscale.autoscaler.window.WindowRates;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An instance that did no useful work in a window has no true rate (docs/metrics.md): the engine's
 * gauges show NaN for it, the policy's window 0, and both sum the operator to the same rate.
 */
class EmptyWindowRatesTest {
    private static final long S = 1_000_000_000L;

    @Test
    void theEnginesOperatorRateAndThePolicysAgreeWhenOneInstanceIdled() {
        // map 0 processed 600 records in 3 s of useful time; map 1 got nothing and only waited.
        OperatorMetrics policy =
                policyMap(
                        Samples.at(10)
                                .source(1000, 1, 10, 0)
                                .map(0, 600, 600, 3, 10)
                                .map(1, 0, 0, 0, 10));
        OperatorRates engine =
                engineRates(List.of(instance(0, 600, 3), instance(1, 0, 0))).get("map");

        assertThat(engine.instances().get(1).trueProcessingRate())
                .as("the idle instance's gauge")
                .isNaN();
        assertThat(policy.instances().get(1).trueProcessingRate())
                .as("its measured capacity")
                .isZero();
        assertThat(engine.trueProcessingRate())
                .isEqualTo(200)
                .isEqualTo(policy.trueProcessingRate());
        assertThat(engine.trueOutputRate()).isEqualTo(200).isEqualTo(policy.trueOutputRate());
        assertThat(engine.observedProcessingRate())
                .isEqualTo(60)
                .isEqualTo(policy.observedProcessingRate());
    }

    @Test
    void
            anOperatorNoneOfWhoseInstancesWorkedHasNoRateInTheEngineAndNoMeasuredCapacityForThePolicy() {
        OperatorMetrics policy =
                policyMap(
                        Samples.at(10).source(0, 0, 10, 0).map(0, 0, 0, 0, 10).map(1, 0, 0, 0, 10));
        OperatorRates engine =
                engineRates(List.of(instance(0, 0, 0), instance(1, 0, 0))).get("map");

        assertThat(engine.trueProcessingRate()).isNaN();
        assertThat(policy.trueProcessingRate()).isZero();
        assertThat(engine.observedProcessingRate())
                .isZero()
                .isEqualTo(policy.observedProcessingRate());
    }

    /** The policy's window of the map operator from zero counters to {@code end}. */
    private static OperatorMetrics policyMap(Samples end) {
        MetricsSample start =
                Samples.at(0).source(0, 0, 0, 0).map(0, 0, 0, 0, 0).map(1, 0, 0, 0, 0).build();
        return WindowRates.between(start, end.build()).window().metrics("map").orElseThrow();
    }

    private static InstanceCounts instance(int index, long records, long usefulSeconds) {
        return new InstanceCounts(
                "map",
                index,
                10 * S,
                10 * S,
                records,
                records,
                usefulSeconds * S,
                (10 - usefulSeconds) * S,
                0,
                0L,
                false,
                0,
                new long[0],
                null,
                null);
    }

    /** The engine's rates over the same window: from zero counters to {@code instances}. */
    private static Map<String, OperatorRates> engineRates(List<InstanceCounts> instances) {
        return new JobMetricsSnapshot("job", 10 * S, Map.of("map", 2), instances, "run-1")
                .ratesSince(null);
    }
}
