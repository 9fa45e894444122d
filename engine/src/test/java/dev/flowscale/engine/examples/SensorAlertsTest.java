package dev.flowscale.engine.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.SensorAlerts.Alert;
import dev.flowscale.engine.examples.SensorAlerts.Reading;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SensorAlertsTest {
    private static final long ROUNDS = 36;
    private static final long WINDOW = 30_000;

    @Test
    void everySensorReportsEveryFiveSecondsAtMostASecondOutOfOrder() {
        for (long seq = 0; seq < 3 * SensorAlerts.SENSORS; seq++) {
            Reading r = SensorAlerts.reading(seq);
            long round = seq / SensorAlerts.SENSORS;
            assertThat(r.sensor()).isEqualTo(seq % SensorAlerts.SENSORS);
            assertThat(r.time() - SensorAlerts.EPOCH_MILLIS - round * 5_000).isBetween(0L, 999L);
        }
    }

    @Test
    void theJobAlertsExactlyTheSensorsThatWereHotAndSmokyInOneWindow() throws Exception {
        long records = ROUNDS * SensorAlerts.SENSORS;
        CollectingSink<Alert> sink = Sinks.collecting();
        JobBuilder job =
                SensorAlerts.build(
                        "sensors",
                        new GeneratorSource<>(null, SensorAlerts::reading, records),
                        sink,
                        Duration.ofMillis(WINDOW));
        job.parallelism(SensorAlerts.SOURCE, 2).parallelism(SensorAlerts.WINDOWS, 3);
        try (RunningJob running = job.start(JobConfig.defaults())) {
            assertThat(running.await(Duration.ofSeconds(60))).as("job finished").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
        assertThat(sink.records())
                .isNotEmpty()
                .containsExactlyInAnyOrderElementsOf(expected(records));
    }

    /** The alerts worked out reading by reading: the extremes of each sensor's window. */
    private static List<Alert> expected(long records) {
        Map<List<Long>, double[]> extremes = new HashMap<>();
        for (long seq = 0; seq < records; seq++) {
            Reading r = SensorAlerts.reading(seq);
            long start = Math.floorDiv(r.time(), WINDOW) * WINDOW;
            double[] most =
                    extremes.computeIfAbsent(
                            List.of((long) r.sensor(), start),
                            k -> new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY});
            most[0] = Math.max(most[0], r.temperature());
            most[1] = Math.max(most[1], r.smoke());
        }
        return extremes.entrySet().stream()
                .filter(
                        e ->
                                e.getValue()[0] > SensorAlerts.HOT_CELSIUS
                                        && e.getValue()[1] > SensorAlerts.SMOKY)
                .map(
                        e ->
                                new Alert(
                                        e.getKey().get(0).intValue(),
                                        e.getKey().get(1),
                                        e.getValue()[0],
                                        e.getValue()[1]))
                .toList();
    }
}
