package dev.flowscale.engine.cli;

import dev.flowscale.engine.examples.SensorAlerts;
import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.NexmarkGenerator;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.engine.source.RateProfile;
import java.time.Duration;
import java.util.List;

/**
 * The built-in jobs with event time: the sensor alert job and the Nexmark queries of the DS2 paper.
 * Their sources are replayable generators at {@code --rate} (up to {@code --limit} records); a
 * Nexmark stream's event time advances at the rate the profile starts with (10,000 events per
 * second of event time with {@code --rate max}).
 */
final class EventTimeJobs {
    static final Duration SENSOR_WINDOW = Duration.ofMinutes(1);
    static final Duration Q5_SIZE = Duration.ofSeconds(10);
    static final Duration Q5_SLIDE = Duration.ofSeconds(2);
    static final Duration Q8_WINDOW = Duration.ofSeconds(10);
    static final Duration Q11_GAP = Duration.ofSeconds(10);

    /** The jobs, in the order {@code list} shows them. */
    static final List<BuiltinJob> ALL =
            List.of(
                    job(
                            "sensor-alerts",
                            "readings (event time) -> keyBy sensor -> 1 min window -> alerts -> sink",
                            (o, idle) ->
                                    SensorAlerts.build(
                                            "sensor-alerts",
                                            BuiltinJobs.source(o, SensorAlerts::reading, idle),
                                            Sinks.counting(),
                                            SENSOR_WINDOW)),
                    job(
                            "nexmark-q1",
                            "events -> bids -> euros (map) -> sink",
                            (o, idle) -> NexmarkQueries.q1("nexmark-q1", events(o, idle), sink())),
                    job(
                            "nexmark-q2",
                            "events -> bids -> selected (auction % 123 = 0) -> project -> sink",
                            (o, idle) -> NexmarkQueries.q2("nexmark-q2", events(o, idle), sink())),
                    job(
                            "nexmark-q3",
                            "events -> persons -> states, auctions -> category; join by seller -> sink",
                            (o, idle) -> NexmarkQueries.q3("nexmark-q3", events(o, idle), sink())),
                    job(
                            "nexmark-q5",
                            "events -> bids -> keyBy auction -> counts (10 s every 2 s) -> hottest -> sink",
                            (o, idle) ->
                                    NexmarkQueries.q5(
                                            "nexmark-q5",
                                            events(o, idle),
                                            sink(),
                                            Q5_SIZE,
                                            Q5_SLIDE)),
                    job(
                            "nexmark-q8",
                            "events -> persons, auctions; join by seller in 10 s windows -> sink",
                            (o, idle) ->
                                    NexmarkQueries.q8(
                                            "nexmark-q8", events(o, idle), sink(), Q8_WINDOW)),
                    job(
                            "nexmark-q11",
                            "events -> bids -> keyBy bidder -> sessions (10 s gap) -> sink",
                            (o, idle) ->
                                    NexmarkQueries.q11(
                                            "nexmark-q11", events(o, idle), sink(), Q11_GAP)));

    private EventTimeJobs() {}

    private static GeneratorSource<Event> events(JobOptions options, boolean idleAtLimit) {
        return BuiltinJobs.source(options, generator(options.rate)::event, idleAtLimit);
    }

    /**
     * Event time advances at the profile's first rate, so windows last about as long on a clock.
     */
    static NexmarkGenerator generator(RateProfile rate) {
        double perSecond = rate == null ? 0 : rate.rateAt(0);
        return new NexmarkGenerator(
                42, NexmarkGenerator.DEFAULT_START_MILLIS, perSecond > 0 ? perSecond : 10_000);
    }

    private static <T> Sinks.CountingSink<T> sink() {
        return Sinks.counting();
    }

    private static BuiltinJob job(String name, String shape, Builder builder) {
        return new BuiltinJob() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String shape() {
                return shape;
            }

            @Override
            public JobBuilder build(JobOptions options, boolean idleAtLimit) {
                return builder.build(options, idleAtLimit);
            }
        };
    }

    @FunctionalInterface
    private interface Builder {
        JobBuilder build(JobOptions options, boolean idleAtLimit);
    }
}
