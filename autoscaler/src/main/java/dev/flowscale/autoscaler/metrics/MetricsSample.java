package dev.flowscale.autoscaler.metrics;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One reading of a job: its topology (current parallelism), the cumulative counters of every
 * instance that reported, when the reading was taken, and the run it belongs to. Counters of
 * different runs must never be subtracted: a restarted job starts them again at zero.
 *
 * @param topology the job as it runs now
 * @param time wall-clock time of the reading
 * @param runId identifies the run; changes when the job is restarted or rescaled
 * @param instances counters of the instances that reported, in topological order, as the runner
 *     contract's record
 */
public record MetricsSample(
        JobTopology topology, Instant time, String runId, List<InstanceCounts> instances) {

    public MetricsSample {
        Objects.requireNonNull(topology, "sample topology");
        Objects.requireNonNull(time, "sample time");
        Objects.requireNonNull(runId, "sample runId");
        instances = List.copyOf(instances);
    }

    public Optional<InstanceCounts> instance(String operatorId, int index) {
        return instances.stream()
                .filter(i -> i.operatorId().equals(operatorId) && i.instance() == index)
                .findFirst();
    }

    /** Counters of one operator's instances, in instance order as reported. */
    public List<InstanceCounts> instancesOf(String operatorId) {
        return instances.stream().filter(i -> i.operatorId().equals(operatorId)).toList();
    }
}
