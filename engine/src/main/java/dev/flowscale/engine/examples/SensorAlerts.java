package dev.flowscale.engine.examples;

import dev.flowscale.engine.api.AggregateFunction;
import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.window.WindowAssigner;
import java.time.Duration;

/**
 * The forest sensor job: {@value #SENSORS} sensors each report temperature and smoke every 5 s of
 * event time (readings up to a second out of order); an alert goes out for a sensor whose
 * temperature and smoke both exceeded their thresholds within one window. Readings are a function
 * of their sequence number ({@link #reading}), so a generator replays them exactly.
 */
public final class SensorAlerts {
    public static final int SENSORS = 1_000;
    public static final long PERIOD_MILLIS = 5_000;
    public static final double HOT_CELSIUS = 50;
    public static final double SMOKY = 0.3;
    public static final String SOURCE = "readings";
    public static final String WINDOWS = "alerts";
    public static final String SINK = "sink";

    /** Where rounds of readings start: a fixed instant, so that replays are identical. */
    static final long EPOCH_MILLIS = 1_767_225_600_000L;

    private SensorAlerts() {}

    /** One report of one sensor at an event time. */
    public record Reading(int sensor, long time, double temperature, double smoke) {}

    /** A sensor that was both too hot and too smoky within the window starting at windowStart. */
    public record Alert(int sensor, long windowStart, double maxTemperature, double maxSmoke) {}

    /** The highest temperature and smoke of a window so far. */
    public record Extremes(double temperature, double smoke) {}

    /**
     * Reading {@code seq}: round seq / 1000 of sensor seq % 1000, at its round's time plus up to
     * 999 ms. A sensor burns (hot and smoky) through a whole minute when its number and the minute
     * hash to 0 mod 97; otherwise it may be warm or smoky at random, rarely both in one report.
     */
    public static Reading reading(long seq) {
        int sensor = (int) (seq % SENSORS);
        long round = seq / SENSORS;
        long time = EPOCH_MILLIS + round * PERIOD_MILLIS + Math.floorMod(seq * 7_919, 1_000);
        long minute = round * PERIOD_MILLIS / 60_000;
        long mix = mix(seq);
        boolean burning = Math.floorMod(mix(sensor * 31L + minute), 97) == 0;
        double temperature =
                burning ? 60 + (mix & 15) : 15 + (mix & 31) + ((mix >>> 8 & 63) == 0 ? 30 : 0);
        double smoke = burning ? 0.5 : ((mix >>> 16 & 63) == 0 ? 0.4 : (mix >>> 24 & 15) / 100.0);
        return new Reading(sensor, time, temperature, smoke);
    }

    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }

    /** readings (event time, 1 s out of order) → keyBy sensor → window → alerts → sink. */
    public static JobBuilder build(
            String jobName,
            SourceFunction<Reading> readings,
            SinkFunction<? super Alert> sink,
            Duration window) {
        JobBuilder job = JobBuilder.named(jobName);
        job.source(
                        SOURCE,
                        readings,
                        WatermarkStrategy.forBoundedOutOfOrderness(
                                Duration.ofSeconds(1), Reading::time))
                .keyBy(Reading::sensor)
                .window(WindowAssigner.tumbling(window))
                .<Extremes, Extremes, Alert>aggregate(
                        WINDOWS,
                        new Highest(),
                        Extremes.class,
                        (sensor, w, most, out) -> {
                            if (most.temperature() > HOT_CELSIUS && most.smoke() > SMOKY) {
                                out.collect(
                                        new Alert(
                                                sensor,
                                                w.start(),
                                                most.temperature(),
                                                most.smoke()));
                            }
                        })
                .sink(SINK, sink);
        return job;
    }

    /** Keeps the highest temperature and smoke of a window. */
    static final class Highest implements AggregateFunction<Reading, Extremes, Extremes> {
        @Override
        public Extremes createAccumulator() {
            return new Extremes(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);
        }

        @Override
        public Extremes add(Reading r, Extremes acc) {
            return new Extremes(
                    Math.max(acc.temperature(), r.temperature()), Math.max(acc.smoke(), r.smoke()));
        }

        @Override
        public Extremes getResult(Extremes acc) {
            return acc;
        }

        @Override
        public Extremes merge(Extremes a, Extremes b) {
            return new Extremes(
                    Math.max(a.temperature(), b.temperature()), Math.max(a.smoke(), b.smoke()));
        }
    }
}
