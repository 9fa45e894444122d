package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * What latency tracking costs the task threads, in isolation, alternated in one JVM after a
 * warm-up: a source's check whether a marker is due (once per poll of its reader), and an operator
 * instance's handling of one marker (the histogram update in a Prometheus registry, and the forward
 * into a downstream input gate, taken out again as the consumer would). Prints nanoseconds of each;
 * a harness that prints figures, not a test. Run:
 *
 * <pre>
 * mvn -pl engine test-compile exec:exec -Dexec.executable=java -Dexec.classpathScope=test \
 *     -Dexec.args="-cp %classpath dev.flowscale.engine.runtime.LatencyMarkerCostBenchmark"
 * </pre>
 */
public final class LatencyMarkerCostBenchmark {
    private static final int CHECKS = 20_000_000;
    private static final int MARKERS = 2_000_000;
    private static final int ROUNDS = 7;

    private LatencyMarkerCostBenchmark() {}

    public static void main(String[] args) throws Exception {
        double[] checks = new double[ROUNDS];
        double[] markers = new double[ROUNDS];
        dueChecks();
        markers();
        for (int r = 0; r < ROUNDS; r++) {
            checks[r] = dueChecks();
            markers[r] = markers();
        }
        System.out.printf(
                Locale.ROOT,
                "%d rounds: due check per poll %s ns; one marker at one instance %s ns%n",
                ROUNDS,
                summary(checks),
                summary(markers));
    }

    /** A check per poll while no marker is due (an hour's interval): the per-poll price. */
    private static double dueChecks() {
        MarkerSchedule schedule =
                new MarkerSchedule("src", 0, Duration.ofHours(1), Clock.systemUTC());
        schedule.due();
        long sink = 0;
        long start = System.nanoTime();
        for (int i = 0; i < CHECKS; i++) {
            if (schedule.due() != null) {
                sink++;
            }
        }
        double ns = (System.nanoTime() - start) / (double) CHECKS;
        return sink == 0 ? ns : Double.NaN;
    }

    /** Record and forward, as {@code OperatorTask.onMarker} does, and take it out downstream. */
    private static double markers() throws InterruptedException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer timer =
                Timer.builder(MetricName.MARKER_LATENCY.micrometer())
                        .serviceLevelObjectives(LatencyMeters.BUCKETS)
                        .register(registry);
        LatencyStats stats = new LatencyStats(Map.of("src", timer), Clock.systemUTC());
        Cancellation cancellation = new Cancellation();
        InputGate gate = new InputGate(1, 4, cancellation);
        PhaseClock clock = new PhaseClock(new InstanceCounterRecorder("op", 0, false), true);
        clock.start();
        RecordWriter writer = TestingWriters.forward(gate, 512, clock, false);
        Batch marker = Batch.marker(new LatencyMarker("src", 0, System.currentTimeMillis()));
        long start = System.nanoTime();
        for (int i = 0; i < MARKERS; i++) {
            var before = clock.setAside();
            stats.record(marker.marker);
            writer.emitMarker(marker);
            clock.resume(before);
            gate.poll();
        }
        return (System.nanoTime() - start) / (double) MARKERS;
    }

    private static String summary(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(
                Locale.ROOT,
                "median %.1f (min %.1f, max %.1f)",
                sorted[sorted.length / 2],
                sorted[0],
                sorted[sorted.length - 1]);
    }
}
