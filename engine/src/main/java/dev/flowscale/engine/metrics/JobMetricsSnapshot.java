package dev.flowscale.engine.metrics;

import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The counters of every instance of a running job at one moment, in topological order of the
 * operators. A controller polls two of these and calls {@link #ratesSince} for DS2's window. {@code
 * runId} changes whenever the job restarts (failure recovery, rescale): counters of a new run start
 * from zero.
 */
public record JobMetricsSnapshot(
        String jobName,
        long timeNanos,
        Map<String, Integer> parallelism,
        List<InstanceCounts> instances,
        String runId) {

    public List<InstanceCounts> instancesOf(String operatorId) {
        return instances.stream().filter(i -> i.operatorId().equals(operatorId)).toList();
    }

    /**
     * Per-operator rates over the window from {@code earlier} to this snapshot. Instances that are
     * missing from {@code earlier} (the job was restarted) are measured from zero.
     */
    public Map<String, OperatorRates> ratesSince(JobMetricsSnapshot earlier) {
        Map<String, OperatorRates> result = new LinkedHashMap<>();
        for (String op : parallelism.keySet()) {
            List<InstanceRates> rates = new ArrayList<>();
            for (InstanceCounts now : instancesOf(op)) {
                InstanceCounts before =
                        earlier == null || !earlier.runId().equals(runId)
                                ? null
                                : earlier.find(op, now.instance());
                rates.add(InstanceRates.between(before != null ? before : zero(now), now));
            }
            result.put(op, OperatorRates.of(op, rates));
        }
        return result;
    }

    public InstanceCounts find(String operatorId, int instance) {
        for (InstanceCounts s : instances) {
            if (s.operatorId().equals(operatorId) && s.instance() == instance) {
                return s;
            }
        }
        return null;
    }

    private static InstanceCounts zero(InstanceCounts like) {
        return new InstanceCounts(
                like.operatorId(),
                like.instance(),
                like.timeNanos(),
                0,
                0,
                0,
                0,
                0,
                0,
                0L,
                false,
                like.keyGroupFirst(),
                new long[0],
                null,
                null);
    }
}
