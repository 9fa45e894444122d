package dev.flowscale.comparison;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.autoscaler.JobAutoScalerContext;
import org.apache.flink.autoscaler.ScalingMetricCollector;
import org.apache.flink.autoscaler.metrics.FlinkMetric;
import org.apache.flink.autoscaler.topology.JobTopology;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.runtime.rest.messages.JobPlanInfo;
import org.apache.flink.runtime.rest.messages.job.JobDetailsInfo;
import org.apache.flink.runtime.rest.messages.job.metrics.AggregatedMetric;
import org.apache.flink.runtime.rest.messages.job.metrics.Metric;

/**
 * The Flink autoscaler's metric collector over the simulator: it answers the questions the REST
 * collector ({@code RestApiMetricsCollector}) asks a Flink cluster. Per vertex: busy and
 * backpressured time per second (per subtask, aggregated min/max/avg/sum as Flink's aggregated
 * subtask metrics are) over the time since the previous collection; cumulative records in/out and
 * busy time in the topology's I/O metrics; for sources, records read per second and in total and
 * the backlog as {@code pendingRecords}. No JVM metrics: the simulator has no heap or GC.
 */
final class SimulatedMetricsCollector
        extends ScalingMetricCollector<String, JobAutoScalerContext<String>> {

    private final SimulatedJobView job;
    private final Clock clock;
    private final Map<String, Snapshot> previous = new HashMap<>();

    private record Snapshot(
            Instant at, Instant runningSince, double recordsIn, double[] busy, double[] blocked) {}

    SimulatedMetricsCollector(SimulatedJobView job, Clock clock) {
        this.job = job;
        this.clock = clock;
        setClock(clock);
    }

    @Override
    public JobDetailsInfo getJobDetailsInfo(
            JobAutoScalerContext<String> context, Duration clientTimeout) {
        long running = job.runningSince().toEpochMilli();
        return new JobDetailsInfo(
                context.getJobID(),
                job.scenario().name(),
                false,
                JobStatus.RUNNING,
                running,
                -1,
                clock.millis() - running,
                Long.MAX_VALUE,
                clock.millis(),
                Map.of(JobStatus.RUNNING, running),
                List.of(),
                Map.of(),
                new JobPlanInfo.RawJson(""));
    }

    @Override
    protected JobTopology getJobTopology(JobDetailsInfo jobDetailsInfo) {
        return job.topology();
    }

    /** Names of Kafka or Pulsar partitions: the simulated sources have none. */
    @Override
    protected Collection<String> queryAggregatedMetricNames(
            RestClusterClient<?> restClient, JobID jobID, JobVertexID jobVertexID) {
        return List.of();
    }

    /** Metric names are fixed here; {@link #queryAllAggregatedMetrics} returns them all. */
    @Override
    protected Map<JobVertexID, Map<String, FlinkMetric>> queryFilteredMetricNames(
            JobAutoScalerContext<String> ctx, JobTopology topology) {
        return Map.of();
    }

    @Override
    protected Map<JobVertexID, Map<FlinkMetric, AggregatedMetric>> queryAllAggregatedMetrics(
            JobAutoScalerContext<String> ctx,
            Map<JobVertexID, Map<String, FlinkMetric>> filteredVertexMetricNames) {
        Map<JobVertexID, Map<FlinkMetric, AggregatedMetric>> out = new HashMap<>();
        job.vertices().forEach((operator, vertex) -> out.put(vertex, vertexMetrics(operator)));
        return out;
    }

    private Map<FlinkMetric, AggregatedMetric> vertexMetrics(String operator) {
        var counters = job.model().counters(operator);
        Instant now = clock.instant();
        Snapshot last = previous.get(operator);
        if (last == null || !last.runningSince().equals(job.runningSince())) {
            last =
                    new Snapshot(
                            job.runningSince(),
                            job.runningSince(),
                            0,
                            new double[counters.busySeconds().length],
                            new double[counters.busySeconds().length]);
        }
        double seconds = Math.max(1e-9, Duration.between(last.at(), now).toNanos() / 1e9);
        Map<FlinkMetric, AggregatedMetric> m = new HashMap<>();
        m.put(
                FlinkMetric.BUSY_TIME_PER_SEC,
                perSubtask("busyTimeMsPerSecond", counters.busySeconds(), last.busy(), seconds));
        if (job.scenario().operator(operator).isSource()) {
            m.put(
                    FlinkMetric.BACKPRESSURE_TIME_PER_SEC,
                    perSubtask(
                            "backPressuredTimeMsPerSecond",
                            counters.backpressuredSeconds(),
                            last.blocked(),
                            seconds));
            double read = counters.recordsIn();
            m.put(
                    FlinkMetric.SOURCE_TASK_NUM_RECORDS_IN_PER_SEC,
                    total("numRecordsInPerSecond", (read - last.recordsIn()) / seconds));
            m.put(FlinkMetric.SOURCE_TASK_NUM_RECORDS_IN, total("numRecordsIn", read));
            m.put(
                    FlinkMetric.PENDING_RECORDS,
                    total("pendingRecords", job.model().backlog(operator)));
        }
        previous.put(
                operator,
                new Snapshot(
                        now,
                        job.runningSince(),
                        counters.recordsIn(),
                        counters.busySeconds(),
                        counters.backpressuredSeconds()));
        return m;
    }

    /** A per-subtask time share in ms per second, aggregated over the subtasks. */
    private static AggregatedMetric perSubtask(
            String name, double[] nowSeconds, double[] thenSeconds, double seconds) {
        double min = Double.MAX_VALUE;
        double max = 0;
        double sum = 0;
        for (int k = 0; k < nowSeconds.length; k++) {
            double msPerSecond = Math.min(1000, 1000 * (nowSeconds[k] - thenSeconds[k]) / seconds);
            min = Math.min(min, msPerSecond);
            max = Math.max(max, msPerSecond);
            sum += msPerSecond;
        }
        return new AggregatedMetric(name, min, max, sum / nowSeconds.length, sum, Double.NaN);
    }

    private static AggregatedMetric total(String name, double sum) {
        return new AggregatedMetric(name, Double.NaN, Double.NaN, Double.NaN, sum, Double.NaN);
    }

    @Override
    protected Map<FlinkMetric, Metric> queryJmMetrics(JobAutoScalerContext<String> ctx) {
        return Map.of();
    }

    @Override
    protected Map<FlinkMetric, AggregatedMetric> queryTmMetrics(JobAutoScalerContext<String> ctx) {
        return Map.of();
    }
}
