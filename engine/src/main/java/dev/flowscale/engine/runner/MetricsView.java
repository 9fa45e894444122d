package dev.flowscale.engine.runner;

import dev.flowscale.engine.metrics.InstanceSnapshot;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code GET /api/v1/metrics}: cumulative DS2 counters of every instance at one
 * moment. Readers derive rates from the differences between two of these with the same run id.
 *
 * @param job          job name
 * @param runId        the run the counters belong to; a new run starts its counters at zero
 * @param timeMillis   wall-clock time of the snapshot, milliseconds since the epoch
 * @param parallelism  instances per operator, in topological order
 * @param instances    counters per instance (times in nanoseconds)
 */
public record MetricsView(String job, String runId, long timeMillis, Map<String, Integer> parallelism,
                          List<InstanceSnapshot> instances) {

    public static MetricsView of(JobMetricsSnapshot snapshot, String runId, long timeMillis) {
        return new MetricsView(snapshot.jobName(), runId, timeMillis, snapshot.parallelism(), snapshot.instances());
    }
}
