package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.Ds2Rates;
import dev.flowscale.runner.api.Rate;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * An operator's DS2 rates over a window: the sums over its instances ({@link Ds2Rates#plus}: DS2
 * aggregates true rates by summing; an instance without a rate adds nothing, {@link Rate}),
 * utilization and backpressure averaged over the instances that have them (NaN where none has),
 * with the per-instance values kept for skew analysis.
 *
 * @param backlog the instances' sum; null when one instance's is (a partial sum would understate
 *     what the operator owes)
 */
public record OperatorRates(
        String operatorId,
        int parallelism,
        Ds2Rates rates,
        double utilization,
        double backpressureRatio,
        Long backlog,
        List<InstanceRates> instances)
        implements RateGauges {

    public static OperatorRates of(String operatorId, List<InstanceRates> instances) {
        return new OperatorRates(
                operatorId,
                instances.size(),
                instances.stream().map(InstanceRates::rates).reduce(Ds2Rates.NONE, Ds2Rates::plus),
                mean(instances, InstanceRates::utilization),
                mean(instances, InstanceRates::backpressureRatio),
                backlog(instances),
                List.copyOf(instances));
    }

    private static Long backlog(List<InstanceRates> instances) {
        return instances.stream().anyMatch(i -> i.backlog() == null)
                ? null
                : instances.stream().mapToLong(InstanceRates::backlog).sum();
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
