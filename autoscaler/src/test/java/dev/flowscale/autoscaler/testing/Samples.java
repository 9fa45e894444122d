package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds synthetic cumulative samples of the job src (p=1) -> map (p=2). */
public final class Samples {
    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    public static final JobTopology TOPOLOGY =
            new JobTopology(
                    "job",
                    List.of(OperatorSpec.of("src", 1), OperatorSpec.of("map", 2)),
                    List.of(new Edge("src", "map")));

    private final List<InstanceCounts> instances = new ArrayList<>();
    private final double seconds;
    private String runId = "run-1";

    private Samples(double seconds) {
        this.seconds = seconds;
    }

    /** A sample {@code seconds} after T0. */
    public static Samples at(double seconds) {
        return new Samples(seconds);
    }

    public Samples run(String id) {
        runId = id;
        return this;
    }

    /** A source instance that emitted {@code out} records and owes {@code backlog}. */
    public Samples source(double out, double useful, double observed, double backlog) {
        instances.add(
                Counters.ofSeconds(
                        "src", 0, out, out, useful, observed - useful, 0, backlog, false));
        return this;
    }

    public Samples map(int instance, double in, double out, double useful, double observed) {
        instances.add(
                Counters.ofSeconds(
                        "map", instance, in, out, useful, observed - useful, 0, 0, false));
        return this;
    }

    public MetricsSample build() {
        return new MetricsSample(
                TOPOLOGY, T0.plusMillis((long) (seconds * 1000)), runId, instances);
    }
}
