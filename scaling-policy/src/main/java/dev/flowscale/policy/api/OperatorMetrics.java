package dev.flowscale.policy.api;

import java.util.List;
import java.util.Optional;

/**
 * One operator's rates over a metrics window, aggregated over its instances (records per second).
 * {@code trueProcessingRate} is Σ over instances of recordsIn / usefulTime and {@code
 * trueOutputRate} Σ recordsOut / usefulTime; observed rates divide by the window length. For a
 * source, "processing" means reading records it owes and {@code source} holds its offered rate and
 * backlog. Per-instance values are optional (empty list), and so are per-key-group rates ({@code
 * keyGroupRates}: records per second of the operator's input in each key group over the window,
 * indexed by key group; empty where the engine does not count them), which show a hot key group at
 * any parallelism, even 1.
 *
 * <p>{@code coreWaitShare} is the share of the operator's useful time its threads were runnable but
 * waited for a core (a loaded machine, a pod throttled by its CPU limit), or null where the engine
 * does not measure it (null is the one encoding of a value not known, as for a source's backlog in
 * {@link SourceMetrics}). Useful time is wall-clock time, so the true rates above count that wait;
 * the policy corrects them for it.
 *
 * <p>The constructor checks only structure (id, parallelism, non-null parts): measured values that
 * are NaN, negative or inconsistent are reported by the policy as a blocked decision explaining the
 * problem.
 */
public record OperatorMetrics(
        String operatorId,
        int parallelism,
        double trueProcessingRate,
        double trueOutputRate,
        double observedProcessingRate,
        double observedOutputRate,
        List<InstanceWindowRates> instances,
        Optional<SourceMetrics> source,
        List<Double> keyGroupRates,
        Double coreWaitShare) {

    public OperatorMetrics {
        Checks.notBlank(operatorId, "metrics operator id");
        Checks.positive(parallelism, "metrics of operator '" + operatorId + "' parallelism");
        instances =
                List.copyOf(
                        Checks.notNull(
                                instances, "metrics of operator '" + operatorId + "' instances"));
        Checks.notNull(
                source, "metrics of operator '" + operatorId + "' source (use Optional.empty())");
        keyGroupRates =
                List.copyOf(
                        Checks.notNull(
                                keyGroupRates,
                                "metrics of operator '"
                                        + operatorId
                                        + "' keyGroupRates (use List.of() when key groups are not counted)"));
    }

    /** Aggregated metrics of a non-source operator without per-instance values. */
    public static OperatorMetrics of(
            String id,
            int parallelism,
            double trueProcessingRate,
            double trueOutputRate,
            double observedProcessingRate,
            double observedOutputRate) {
        return new OperatorMetrics(
                id,
                parallelism,
                trueProcessingRate,
                trueOutputRate,
                observedProcessingRate,
                observedOutputRate,
                List.of(),
                Optional.empty(),
                List.of(),
                null);
    }

    /**
     * The same metrics as a source's, with its offered rate and backlog (null: no lag signal, see
     * {@link SourceMetrics}).
     */
    public OperatorMetrics withSource(double offeredRate, Double backlogRecords) {
        return with(
                instances,
                Optional.of(new SourceMetrics(offeredRate, backlogRecords)),
                keyGroupRates,
                coreWaitShare);
    }

    public OperatorMetrics withInstances(List<InstanceWindowRates> perInstance) {
        return with(perInstance, source, keyGroupRates, coreWaitShare);
    }

    /** The same metrics with the input rate of each key group (index = key group). */
    public OperatorMetrics withKeyGroupRates(List<Double> perKeyGroup) {
        return with(instances, source, perKeyGroup, coreWaitShare);
    }

    /**
     * The same metrics with the share of useful time the threads waited for a core (null: not
     * known).
     */
    public OperatorMetrics withCoreWaitShare(Double share) {
        return with(instances, source, keyGroupRates, share);
    }

    /** The same rates with other per-instance, source, key-group and core-wait parts. */
    private OperatorMetrics with(
            List<InstanceWindowRates> perInstance,
            Optional<SourceMetrics> sourcePart,
            List<Double> perKeyGroup,
            Double share) {
        return new OperatorMetrics(
                operatorId,
                parallelism,
                trueProcessingRate,
                trueOutputRate,
                observedProcessingRate,
                observedOutputRate,
                perInstance,
                sourcePart,
                perKeyGroup,
                share);
    }

    /** True processing rate of one instance on average: the capacity DS2 assumes per instance. */
    public double capacityPerInstance() {
        return trueProcessingRate / parallelism;
    }
}
