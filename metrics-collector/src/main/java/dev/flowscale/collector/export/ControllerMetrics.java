package dev.flowscale.collector.export;

import dev.flowscale.collector.window.WindowListener;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.api.SourceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * The controller's own metrics, prefixed {@code flowscale_controller_} with labels {@code job}
 * and {@code operator}: per operator the current, recommended and new parallelism, target input
 * rate and planned utilization (from each decision) and the measured true processing rate and
 * source backlog (from each window); decisions counted by outcome and block reason; and the
 * downtime of each rescale as a histogram (wrap the realizer with {@link #timed}).
 */
public final class ControllerMetrics implements DecisionListener, WindowListener {
    private static final String PREFIX = "flowscale.controller.";

    private final MeterRegistry registry;
    private final GaugeTable gauges;
    private final Mode mode;
    private final Clock clock;

    /**
     * @param mode whether SCALE decisions are carried out ({@code scaled}) or only published
     *             ({@code recommended}); the decision counter's outcome label says which
     */
    public ControllerMetrics(MeterRegistry registry, Mode mode, Clock clock) {
        this.registry = Objects.requireNonNull(registry, "controller metrics registry");
        this.mode = Objects.requireNonNull(mode, "controller metrics mode");
        this.clock = Objects.requireNonNull(clock, "controller metrics clock");
        this.gauges = new GaugeTable(registry);
    }

    @Override
    public void onDecision(ScalingDecision decision) {
        String reason = decision.blockReason().map(r -> r.name().toLowerCase(Locale.ROOT)).orElse("none");
        Counter.builder(PREFIX + "decisions").description("Scaling decisions by outcome and block reason")
                .tags("job", decision.jobName(), "outcome", outcome(decision), "reason", reason)
                .register(registry).increment();
        decision.operators().values().forEach(op -> record(decision.jobName(), op));
    }

    private String outcome(ScalingDecision decision) {
        return switch (decision.outcome()) {
            case SCALE -> mode == Mode.AUTO ? "scaled" : "recommended";
            case NO_CHANGE -> "no_change";
            case NO_CHANGE_WITHIN_DEAD_BAND -> "within_dead_band";
            case BLOCKED -> "blocked";
        };
    }

    private void record(String job, OperatorDecision op) {
        Tags tags = Tags.of("job", job, "operator", op.operatorId());
        gauges.set(PREFIX + "parallelism", "Parallelism the operator runs at", null, tags, op.currentParallelism());
        gauges.set(PREFIX + "recommended.parallelism", "Parallelism DS2 and the sizing guards recommend", null,
                tags, op.recommendedParallelism());
        gauges.set(PREFIX + "new.parallelism", "Parallelism decided after scale-down delay and dead band", null,
                tags, op.newParallelism());
        gauges.set(PREFIX + "target.input.rate", "Records per second the operator must process", "records.per.second",
                tags, op.targetInputRate());
        gauges.set(PREFIX + "utilization", "Planned utilization: target rate / (new parallelism x capacity)", null,
                tags, op.utilization());
    }

    @Override
    public void onWindow(JobTopology topology, MetricsWindow window) {
        for (OperatorMetrics m : window.operators().values()) {
            Tags tags = Tags.of("job", topology.jobName(), "operator", m.operatorId());
            gauges.set(PREFIX + "true.processing.rate", "DS2 true processing rate, summed over instances",
                    "records.per.second", tags, m.trueProcessingRate());
            gauges.set(PREFIX + "observed.processing.rate", "Records processed per second of the window",
                    "records.per.second", tags, m.observedProcessingRate());
            m.source().map(SourceMetrics::backlogRecords).ifPresent(backlog -> gauges.set(PREFIX + "source.backlog",
                    "Records the source owes at the end of the window", "records", tags, backlog));
        }
    }

    /** Records one rescale's downtime: from the start of stop-with-savepoint until the job runs again. */
    public void rescaleFinished(String job, Duration downtime) {
        Timer.builder(PREFIX + "rescale.downtime")
                .description("Time from the start of a rescale until the job runs again").tags("job", job).publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(100))
                .maximumExpectedValue(Duration.ofMinutes(10)).register(registry).record(downtime);
    }

    /** A realizer that records each rescale's downtime (successful or not) with this object's clock. */
    public ScalingRealizer timed(ScalingRealizer realizer) {
        Objects.requireNonNull(realizer, "realizer to time");
        return decision -> {
            Instant start = clock.instant();
            return realizer.realize(decision).whenComplete((ok, failure) ->
                    rescaleFinished(decision.jobName(), Duration.between(start, clock.instant())));
        };
    }
}
