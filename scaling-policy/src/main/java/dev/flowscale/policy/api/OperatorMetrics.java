package dev.flowscale.policy.api;

import java.util.List;
import java.util.Optional;

/**
 * One operator's rates over a metrics window, aggregated over its instances (records per
 * second). {@code trueProcessingRate} is Σ over instances of recordsIn / usefulTime and
 * {@code trueOutputRate} Σ recordsOut / usefulTime; observed rates divide by the window length.
 * For a source, "processing" means reading records it owes and {@code source} holds its offered
 * rate and backlog. Per-instance values are optional (empty list).
 *
 * <p>The constructor checks only structure (id, parallelism, non-null parts): measured values
 * that are NaN, negative or inconsistent are reported by the policy as a blocked decision
 * explaining the problem.
 */
public record OperatorMetrics(String operatorId, int parallelism, double trueProcessingRate,
        double trueOutputRate, double observedProcessingRate, double observedOutputRate,
        List<InstanceMetrics> instances, Optional<SourceMetrics> source) {

    public OperatorMetrics {
        Checks.notBlank(operatorId, "metrics operator id");
        Checks.positive(parallelism, "metrics of operator '" + operatorId + "' parallelism");
        instances = List.copyOf(Checks.notNull(instances, "metrics of operator '" + operatorId + "' instances"));
        Checks.notNull(source, "metrics of operator '" + operatorId + "' source (use Optional.empty())");
    }

    /** Aggregated metrics of a non-source operator without per-instance values. */
    public static OperatorMetrics of(String id, int parallelism, double trueProcessingRate,
            double trueOutputRate, double observedProcessingRate, double observedOutputRate) {
        return new OperatorMetrics(id, parallelism, trueProcessingRate, trueOutputRate,
                observedProcessingRate, observedOutputRate, List.of(), Optional.empty());
    }

    public OperatorMetrics withSource(double offeredRate, double backlogRecords) {
        return new OperatorMetrics(operatorId, parallelism, trueProcessingRate, trueOutputRate,
                observedProcessingRate, observedOutputRate, instances,
                Optional.of(new SourceMetrics(offeredRate, backlogRecords)));
    }

    public OperatorMetrics withInstances(List<InstanceMetrics> perInstance) {
        return new OperatorMetrics(operatorId, parallelism, trueProcessingRate, trueOutputRate,
                observedProcessingRate, observedOutputRate, perInstance, source);
    }

    /** True processing rate of one instance on average: the capacity DS2 assumes per instance. */
    public double capacityPerInstance() {
        return trueProcessingRate / parallelism;
    }
}
