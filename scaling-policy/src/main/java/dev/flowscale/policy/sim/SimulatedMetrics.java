package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsProvider;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns the model's per-instance counts into a {@link MetricsWindow} the way the collector will:
 * per instance true rates = records / useful time, observed rates = records / window length, summed
 * per operator; sources add their offered rate and backlog, other operators the rate of each key
 * group (as an engine that counts records per key group would). The window covers the last {@code
 * windowLength} of steps since the last restart.
 */
public final class SimulatedMetrics implements MetricsProvider {

    private final DataflowModel model;
    private final Duration step;
    private final Duration windowLength;

    public SimulatedMetrics(DataflowModel model, Duration step, Duration windowLength) {
        this.model = model;
        this.step = step;
        this.windowLength = windowLength;
    }

    @Override
    public JobTopology topology() {
        return model.topology();
    }

    @Override
    public Optional<MetricsWindow> currentWindow() {
        List<StepSample> in = model.samplesWithin(windowLength);
        if (in.isEmpty()) {
            return Optional.empty();
        }
        Instant end = in.get(in.size() - 1).end();
        Instant start = in.get(0).end().minus(step);
        List<OperatorMetrics> metrics = new ArrayList<>();
        JobTopology t = model.topology();
        double seconds = Duration.between(start, end).toNanos() / 1e9;
        for (String id : t.topologicalOrder()) {
            metrics.add(operator(t, id, in, seconds));
        }
        return Optional.of(MetricsWindow.of(start, end, metrics));
    }

    private OperatorMetrics operator(
            JobTopology t, String id, List<StepSample> samples, double seconds) {
        int p = samples.get(0).counts().get(id).length;
        List<InstanceWindowRates> instances = new ArrayList<>();
        double[] sum = new double[4];
        for (int k = 0; k < p; k++) {
            double[] c = total(samples, id, k);
            double trueIn = c[2] > 0 ? c[0] / c[2] : 0;
            double trueOut = c[2] > 0 ? c[1] / c[2] : 0;
            InstanceWindowRates i =
                    new InstanceWindowRates(k, trueIn, trueOut, c[0] / seconds, c[1] / seconds);
            instances.add(i);
            sum[0] += trueIn;
            sum[1] += trueOut;
            sum[2] += i.observedProcessingRate();
            sum[3] += i.observedOutputRate();
        }
        OperatorMetrics m =
                OperatorMetrics.of(id, p, sum[0], sum[1], sum[2], sum[3]).withInstances(instances);
        if (!t.isSource(id)) {
            return m.withKeyGroupRates(keyGroupRates(model.scenario().operator(id), sum[2]));
        }
        double offered = samples.stream().mapToDouble(s -> s.offered().get(id)).sum() / seconds;
        return m.withSource(offered, samples.get(samples.size() - 1).backlog().get(id));
    }

    private static List<Double> keyGroupRates(SimOperator op, double processed) {
        List<Double> rates = new ArrayList<>(op.keyGroups());
        for (int g = 0; g < op.keyGroups(); g++) {
            rates.add(processed * op.keyGroupShare(g));
        }
        return rates;
    }

    private static double[] total(List<StepSample> samples, String id, int instance) {
        double[] c = new double[3];
        for (StepSample s : samples) {
            double[] v = s.counts().get(id)[instance];
            c[0] += v[0];
            c[1] += v[1];
            c[2] += v[2];
        }
        return c;
    }
}
