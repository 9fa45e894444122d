package dev.flowscale.autoscaler.export;

import dev.flowscale.autoscaler.window.WindowListener;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The controller's own metrics, prefixed {@code flowscale_controller_} with labels {@code job} and
 * {@code operator}: per operator the current, recommended and new parallelism, target input rate
 * and planned utilization (from each decision) and the measured true processing rate and source
 * backlog (from each window); decisions counted by outcome and block reason; each scaling decision
 * as a series of {@code flowscale_controller_decision_timestamp_seconds} whose value is the
 * decision's time and whose labels say what changed and why (the dashboard's annotations; the last
 * {@value #DECISIONS_KEPT} per job are kept); rescales counted by result; and the downtime of each
 * rescale as a histogram ({@link #rescaleFinished}).
 */
public final class ControllerMetrics implements DecisionListener, WindowListener {

    /**
     * Scaling decisions kept as annotation series per job; older ones are removed from the
     * registry.
     */
    public static final int DECISIONS_KEPT = 20;

    /** Longest {@code reasons} label value; longer reasons are cut with an ellipsis. */
    static final int REASONS_MAX = 400;

    private final MeterRegistry registry;
    private final GaugeTable gauges;
    private final Mode mode;
    private final String jobLabel;
    private final Map<String, Deque<Meter.Id>> decisionSeries = new ConcurrentHashMap<>();

    /** Per job, the counters and timers this object registered (gauges: {@link GaugeTable}). */
    private final Map<String, Set<Meter.Id>> owned = new ConcurrentHashMap<>();

    /**
     * @param mode whether SCALE decisions are carried out ({@code scaled}) or only published
     *     ({@code recommended}); the decision counter's outcome label says which
     */
    public ControllerMetrics(MeterRegistry registry, Mode mode) {
        this(registry, mode, null);
    }

    /**
     * @param jobLabel the {@code job} label of every meter, or null for the job name the decisions
     *     and windows carry (the Kubernetes operator uses {@code namespace/name}, so two StreamJobs
     *     of the same job never share series)
     */
    public ControllerMetrics(MeterRegistry registry, Mode mode, String jobLabel) {
        this.registry = Objects.requireNonNull(registry, "controller metrics registry");
        this.mode = Objects.requireNonNull(mode, "controller metrics mode");
        this.gauges = new GaugeTable(registry);
        this.jobLabel = jobLabel;
    }

    private String job(String name) {
        return jobLabel != null ? jobLabel : name;
    }

    @Override
    public void onDecision(ScalingDecision decision) {
        String job = job(decision.jobName());
        String reason =
                decision.blockReason().map(r -> r.name().toLowerCase(Locale.ROOT)).orElse("none");
        String outcome = outcome(decision);
        registerRescaleMeters(job);
        own(
                        job,
                        Counter.builder(MetricName.CONTROLLER_DECISIONS.micrometer())
                                .description(MetricName.CONTROLLER_DECISIONS.description())
                                .tags("job", job, "outcome", outcome, "reason", reason)
                                .register(registry))
                .increment();
        decision.operators().values().forEach(op -> record(job, op));
        if (decision.outcome() == Outcome.SCALE) {
            annotate(job, outcome, decision);
        }
    }

    /** One series per scaling decision, valued with its time: Grafana shows it as an annotation. */
    private void annotate(String job, String outcome, ScalingDecision decision) {
        String change = decision.changeSummary();
        List<String> why = new ArrayList<>(decision.reasons());
        decision.operators().values().stream()
                .filter(OperatorDecision::changes)
                .forEach(op -> why.add(op.operatorId() + ": " + String.join("; ", op.reasons())));
        String reasons = String.join(" | ", why);
        if (reasons.length() > REASONS_MAX) {
            reasons = reasons.substring(0, REASONS_MAX - 1) + "…";
        }
        double seconds = decision.time().toEpochMilli() / 1000.0;
        MetricName name = MetricName.CONTROLLER_DECISION_TIMESTAMP;
        Gauge gauge =
                Gauge.builder(name.micrometer(), () -> seconds)
                        .baseUnit(name.unit())
                        .description(name.description())
                        .tags(
                                "job",
                                job,
                                "outcome",
                                outcome,
                                "change",
                                change,
                                "reasons",
                                reasons,
                                "decided_at",
                                decision.time().toString())
                        .register(registry);
        Deque<Meter.Id> kept = decisionSeries.computeIfAbsent(job, j -> new ArrayDeque<>());
        synchronized (kept) {
            kept.addLast(gauge.getId());
            while (kept.size() > DECISIONS_KEPT) {
                registry.remove(kept.removeFirst());
            }
        }
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
        gauges.set(MetricName.CONTROLLER_PARALLELISM, tags, op.currentParallelism());
        gauges.set(
                MetricName.CONTROLLER_RECOMMENDED_PARALLELISM, tags, op.recommendedParallelism());
        gauges.set(MetricName.CONTROLLER_NEW_PARALLELISM, tags, op.newParallelism());
        gauges.set(MetricName.CONTROLLER_TARGET_INPUT_RATE, tags, op.targetInputRate());
        gauges.set(MetricName.CONTROLLER_UTILIZATION, tags, op.utilization());
    }

    @Override
    public void onWindow(JobTopology topology, MetricsWindow window) {
        for (OperatorMetrics m : window.operators().values()) {
            Tags tags = Tags.of("job", job(topology.jobName()), "operator", m.operatorId());
            gauges.set(MetricName.CONTROLLER_TRUE_PROCESSING_RATE, tags, m.trueProcessingRate());
            gauges.set(
                    MetricName.CONTROLLER_OBSERVED_PROCESSING_RATE,
                    tags,
                    m.observedProcessingRate());
            m.source()
                    // No lag signal: NaN, the gauge's "no value", never a last value or 0.
                    .map(s -> s.hasBacklogSignal() ? s.backlogRecords() : Double.NaN)
                    .ifPresent(
                            backlog ->
                                    gauges.set(
                                            MetricName.CONTROLLER_SOURCE_BACKLOG, tags, backlog));
        }
    }

    /**
     * Removes the series this object registered for {@code jobName} (the job is gone or its loop
     * stops), so a scrape no longer reports its last values as current. Series other owners record
     * under the same prefix (the operator's per-path rescale downtime) stay theirs to remove.
     */
    public void forget(String jobName) {
        String job = job(jobName);
        Set<Meter.Id> ours = owned.remove(job);
        if (ours != null) {
            ours.forEach(registry::remove);
        }
        Deque<Meter.Id> decisions = decisionSeries.remove(job);
        if (decisions != null) {
            synchronized (decisions) {
                decisions.forEach(registry::remove);
            }
        }
        gauges.forget(job);
    }

    private <M extends Meter> M own(String job, M meter) {
        owned.computeIfAbsent(job, j -> ConcurrentHashMap.newKeySet()).add(meter.getId());
        return meter;
    }

    /**
     * Records one rescale: its downtime (from the start of stop-with-savepoint until the job runs
     * again, also for a rescale that rolled back) and its result in {@code
     * flowscale_controller_rescales_total}.
     */
    public void rescaleFinished(String jobName, Duration downtime, boolean succeeded) {
        String job = job(jobName);
        downtime(job).record(downtime);
        rescales(job, succeeded).increment();
    }

    /**
     * Registers a job's rescale meters at zero with its first decision: Prometheus's rate() and
     * increase() see a counter's first sample as its start, so a histogram born with the first
     * rescale shows nothing for it (the dashboard's downtime panel stayed empty after one rescale).
     */
    private void registerRescaleMeters(String job) {
        downtime(job);
        rescales(job, true);
        rescales(job, false);
    }

    private Timer downtime(String job) {
        return own(
                job,
                Timer.builder(MetricName.CONTROLLER_RESCALE_DOWNTIME.micrometer())
                        .description(MetricName.CONTROLLER_RESCALE_DOWNTIME.description())
                        .tags("job", job)
                        .publishPercentileHistogram()
                        .minimumExpectedValue(Duration.ofMillis(100))
                        .maximumExpectedValue(Duration.ofMinutes(10))
                        .register(registry));
    }

    private Counter rescales(String job, boolean succeeded) {
        return own(
                job,
                Counter.builder(MetricName.CONTROLLER_RESCALES.micrometer())
                        .description(MetricName.CONTROLLER_RESCALES.description())
                        .tags("job", job, "result", succeeded ? "succeeded" : "failed")
                        .register(registry));
    }
}
