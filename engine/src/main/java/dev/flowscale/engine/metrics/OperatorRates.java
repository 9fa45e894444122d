package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.Rate;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * An operator's DS2 rates over a window: the sums over its instances (DS2 aggregates true rates by
 * summing; an instance without a rate adds nothing, {@link Rate}), utilization and backpressure
 * averaged over the instances that have them, with the per-instance values kept for skew analysis.
 * A value no instance has is NaN. The backlog is the instances' sum, unknown when one instance's is
 * (a partial sum would understate what the operator owes).
 */
public record OperatorRates(
        String operatorId,
        int parallelism,
        double trueProcessingRate,
        double trueOutputRate,
        double observedProcessingRate,
        double observedOutputRate,
        double utilization,
        double backpressureRatio,
        long backlog,
        boolean backlogUnknown,
        List<InstanceRates> instances) {

    public static OperatorRates of(String operatorId, List<InstanceRates> instances) {
        boolean backlogUnknown = instances.stream().anyMatch(InstanceRates::backlogUnknown);
        long backlog =
                backlogUnknown ? 0 : instances.stream().mapToLong(InstanceRates::backlog).sum();
        return new OperatorRates(
                operatorId,
                instances.size(),
                sum(instances, InstanceRates::trueProcessingRate),
                sum(instances, InstanceRates::trueOutputRate),
                sum(instances, InstanceRates::observedProcessingRate),
                sum(instances, InstanceRates::observedOutputRate),
                mean(instances, InstanceRates::utilization),
                mean(instances, InstanceRates::backpressureRatio),
                backlog,
                backlogUnknown,
                List.copyOf(instances));
    }

    private static double sum(List<InstanceRates> instances, ToDoubleFunction<InstanceRates> rate) {
        OptionalDouble sum = OptionalDouble.empty();
        for (InstanceRates r : instances) {
            sum = Rate.plus(sum, Rate.ofGauge(rate.applyAsDouble(r)));
        }
        return Rate.gauge(sum);
    }

    private static double mean(
            List<InstanceRates> instances, ToDoubleFunction<InstanceRates> ratio) {
        return instances.stream()
                .mapToDouble(ratio)
                .filter(v -> !Double.isNaN(v))
                .average()
                .orElse(Double.NaN);
    }
}
