package dev.flowscale.engine.metrics;

import java.util.List;

/**
 * An operator's DS2 rates over a window: the sums over its instances (DS2 aggregates true rates
 * by summing), with the per-instance values kept for skew analysis.
 */
public record OperatorRates(String operatorId, int parallelism, double trueProcessingRate, double trueOutputRate,
                            double observedProcessingRate, double observedOutputRate, double utilization,
                            double backpressureRatio, long backlog, List<InstanceRates> instances) {

    public static OperatorRates of(String operatorId, List<InstanceRates> instances) {
        double tp = 0, to = 0, op = 0, oo = 0, util = 0, bp = 0;
        long backlog = 0;
        for (InstanceRates r : instances) {
            tp += r.trueProcessingRate();
            to += r.trueOutputRate();
            op += r.observedProcessingRate();
            oo += r.observedOutputRate();
            util += r.utilization();
            bp += r.backpressureRatio();
            backlog += r.backlog();
        }
        int n = Math.max(1, instances.size());
        return new OperatorRates(operatorId, instances.size(), tp, to, op, oo, util / n, bp / n, backlog,
                List.copyOf(instances));
    }
}
