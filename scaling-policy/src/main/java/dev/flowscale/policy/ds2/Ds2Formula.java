package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The DS2 model (DS2 §3.2) over the graph in topological order: an operator's target input rate is
 * the sum of its upstream operators' target output rates (sources: their target rate); its optimal
 * parallelism is target / (true processing rate per instance); its target output rate is true
 * output rate × target / true processing rate.
 */
public final class Ds2Formula {

    /** Guards ceil() against floating-point noise such as 10.000000000002. */
    private static final double EPSILON = 1e-9;

    private Ds2Formula() {}

    /** The DS2 estimate for one operator (rates in records per second). */
    public record Estimate(
            String operatorId,
            double targetInputRate,
            double capacityPerInstance,
            double targetOutputRate) {

        /**
         * Exact DS2 parallelism at the given utilization, rounded up (never below what sustains the
         * target); 0 when capacity is unknown but needed.
         */
        public int parallelism(double targetUtilization) {
            if (targetInputRate == 0) {
                return 1;
            }
            if (capacityPerInstance == 0) {
                return 0;
            }
            return Math.max(1, ceil(targetInputRate / (capacityPerInstance * targetUtilization)));
        }
    }

    /**
     * Estimates for every operator in topological order. Upstream output rates are kept in an array
     * by topological position: this runs several times per decision, and looking every input up by
     * id made it the costliest step of a decision on a large graph.
     */
    public static Map<String, Estimate> estimate(
            JobTopology topology, MetricsWindow window, Map<String, Double> sourceTargetRates) {
        return estimate(topology, inOrder(topology, window), sourceTargetRates);
    }

    /**
     * The window's metrics by topological position, looked up once per decision: a decision runs
     * several DS2 passes, and a lookup by id per operator and pass cost more than the passes.
     */
    static OperatorMetrics[] inOrder(JobTopology topology, MetricsWindow window) {
        OperatorMetrics[] metrics = withGaps(topology, window);
        for (int i = 0; i < metrics.length; i++) {
            if (metrics[i] == null) {
                throw new NoSuchElementException(
                        "operator '" + topology.topologicalOrder().get(i) + "' has no metrics");
            }
        }
        return metrics;
    }

    /**
     * The window's metrics by topological position, null where an operator has none: what the
     * validator checks and, once valid, what every pass reads.
     */
    static OperatorMetrics[] withGaps(JobTopology topology, MetricsWindow window) {
        List<String> order = topology.topologicalOrder();
        OperatorMetrics[] metrics = new OperatorMetrics[order.size()];
        // each of the window's metrics placed by the topology's index, not looked up in the
        // window's map per operator. A collector lists them in the topology's order, so the
        // position after the previous one is tried first: on 10,000 operators the index's table
        // is read at random places, a cache miss or more per operator, where the order is read in
        // sequence
        int next = 0;
        for (OperatorMetrics m : window.operators().values()) {
            String id = m.operatorId();
            int position =
                    next < order.size() && id.equals(order.get(next))
                            ? next
                            : topology.positionOf(id);
            if (position >= 0) {
                metrics[position] = m;
                next = position + 1;
            }
        }
        return metrics;
    }

    /** {@link #estimate(JobTopology, MetricsWindow, Map)} over metrics by topological position. */
    static Estimates estimate(
            JobTopology topology,
            OperatorMetrics[] metrics,
            Map<String, Double> sourceTargetRates) {
        List<String> order = topology.topologicalOrder();
        double[] outputs = new double[order.size()];
        Estimate[] estimates = new Estimate[order.size()];
        for (int i = 0; i < outputs.length; i++) {
            boolean source = topology.isSourceAt(i);
            double target =
                    source
                            ? sourceTargetRates.get(order.get(i))
                            : topology.sumOverInputs(i, outputs);
            estimates[i] = estimate(metrics[i], target, source);
            outputs[i] = estimates[i].targetOutputRate();
        }
        return new Estimates(topology, estimates);
    }

    /** A source that emitted nothing (e.g. fully backpressured) still passes its target on. */
    private static Estimate estimate(OperatorMetrics m, double target, boolean source) {
        double trueIn = m.trueProcessingRate();
        double output = trueIn > 0 ? m.trueOutputRate() * target / trueIn : source ? target : 0;
        return new Estimate(m.operatorId(), target, trueIn / m.parallelism(), output);
    }

    static int ceil(double x) {
        return (int) Math.min(Integer.MAX_VALUE, Math.ceil(x - EPSILON * Math.max(1, x)));
    }
}
