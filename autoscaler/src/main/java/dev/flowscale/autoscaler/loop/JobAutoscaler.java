package dev.flowscale.autoscaler.loop;

import dev.flowscale.autoscaler.export.ControllerMetrics;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.state.HistoryStore;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RecordingRealizer;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.AutoscalerLoop;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One job's autoscaler, assembled the one way the command line and the operator share: a {@link
 * MetricsSource} feeds a {@link WindowedMetricsProvider}, {@link Ds2Policy} decides every policy
 * interval, the {@link AutoscalerLoop} publishes each decision to the {@link ControllerMetrics} and
 * the given listeners and, in mode auto, hands SCALE decisions to the realizer. Each rescale's end
 * is read from the loop's history on the tick after it ended (the realizer's stage, or the
 * executor's record a {@link RecordingRealizer} reads) and counted once in the metrics with its
 * duration. Call {@link #tick()} about once a second.
 */
public final class JobAutoscaler implements AutoCloseable {
    private final String jobLabel;
    private final ControllerMetrics metrics;
    private final WindowedMetricsProvider provider;
    private final AutoscalerLoop loop;
    private final HistoryStore memory;
    private final Consumer<Throwable> errors;
    private ScalingHistory saved;
    private Optional<RescaleRecord> counted;

    /**
     * What the autoscaler decides with.
     *
     * @param loop mode and policy interval of the loop
     * @param policy the DS2 policy's guards; its warm-up also drops the window's first samples
     * @param window length of the metrics window a decision is based on
     */
    public record Settings(AutoscalerConfig loop, PolicyConfig policy, Duration window) {
        public Settings {
            Objects.requireNonNull(loop, "autoscaler loop settings");
            Objects.requireNonNull(policy, "autoscaler policy settings");
            Objects.requireNonNull(window, "autoscaler window");
        }

        /** The settings table's values, with a window of one policy interval. */
        public static Settings of(SettingValues values) {
            return new Settings(
                    values.autoscaler(), values.policy(), values.duration(Setting.POLICY_INTERVAL));
        }

        public Settings withWindow(Duration length) {
            return new Settings(loop, policy, length);
        }
    }

    /**
     * Where the autoscaler reports.
     *
     * @param registry where the {@link ControllerMetrics} go
     * @param jobLabel the {@code job} label of those metrics; null: the job's name
     * @param clock the loop's and the policy's clock
     * @param errors errors of the policy, listeners and realizer (the loop keeps running)
     */
    public record Reporting(
            MeterRegistry registry, String jobLabel, Clock clock, Consumer<Throwable> errors) {}

    public JobAutoscaler(
            Settings settings,
            MetricsSource source,
            ScalingRealizer realizer,
            List<DecisionListener> listeners,
            Reporting reporting) {
        this(settings, UnaryOperator.identity(), source, realizer, listeners, reporting);
    }

    /**
     * @param bound wraps the DS2 policy, e.g. to bound its decisions by a Flink job's task slots
     */
    public JobAutoscaler(
            Settings settings,
            UnaryOperator<ScalingPolicy> bound,
            MetricsSource source,
            ScalingRealizer realizer,
            List<DecisionListener> listeners,
            Reporting reporting) {
        this(settings, bound, source, realizer, listeners, reporting, HistoryStore.NONE);
    }

    /**
     * @param memory where what the loop learns is kept: loaded now (a history that cannot be read
     *     is reported as an error and the loop starts afresh), saved after each decision and after
     *     each rescale's end
     */
    public JobAutoscaler(
            Settings settings,
            UnaryOperator<ScalingPolicy> bound,
            MetricsSource source,
            ScalingRealizer realizer,
            List<DecisionListener> listeners,
            Reporting reporting,
            HistoryStore memory) {
        Clock clock = reporting.clock();
        this.jobLabel = reporting.jobLabel();
        this.metrics =
                new ControllerMetrics(reporting.registry(), settings.loop().mode(), jobLabel);
        this.provider =
                new WindowedMetricsProvider(
                        source,
                        new WindowSettings(settings.window(), settings.policy().warmUp()),
                        List.of(metrics));
        List<DecisionListener> all = new ArrayList<>();
        all.add(metrics);
        all.addAll(listeners);
        this.loop =
                new AutoscalerLoop(
                        settings.loop(),
                        bound.apply(new Ds2Policy(settings.policy(), clock)),
                        provider,
                        realizer,
                        all,
                        clock,
                        reporting.errors());
        this.memory = memory;
        this.errors = reporting.errors();
        restore();
    }

    private void restore() {
        try {
            memory.load().ifPresent(loop::restore);
        } catch (RuntimeException e) {
            errors.accept(e);
        }
        saved = loop.history();
        counted = saved.lastRescale(); // an earlier loop counted it, if it had ended
    }

    /** Samples the source, and decides if the policy interval has passed: that decision. */
    public Optional<ScalingDecision> tick() {
        provider.poll();
        Optional<ScalingDecision> decision = loop.tick();
        ScalingHistory now = loop.history();
        countEnded(now);
        save(now);
        return decision;
    }

    /** Counts the last rescale in the metrics once it ended, once. */
    private void countEnded(ScalingHistory now) {
        Optional<RescaleRecord> last = now.lastRescale();
        if (last.isEmpty() || last.get().inProgress() || last.equals(counted)) {
            return;
        }
        counted = last;
        List<ScalingDecision> decided = now.decisions(); // a rescale follows a decision
        String job = decided.isEmpty() ? "" : decided.get(decided.size() - 1).jobName();
        metrics.rescaleFinished(job, last.get().duration().orElseThrow(), !last.get().failed());
    }

    /**
     * Stores the loop's history when it holds a decision or a rescale's progress it did not hold
     * when last stored; a store that fails is reported and tried again at the next tick.
     */
    private void save(ScalingHistory now) {
        if (sameDecisions(now, saved) && now.lastRescale().equals(saved.lastRescale())) {
            return;
        }
        try {
            memory.save(now);
            saved = now;
        } catch (RuntimeException e) {
            errors.accept(e);
        }
    }

    private static boolean sameDecisions(ScalingHistory a, ScalingHistory b) {
        int n = a.decisions().size();
        return n == b.decisions().size()
                && (n == 0 || a.decisions().get(n - 1) == b.decisions().get(n - 1));
    }

    /** The loop: its history, rescale durations and error count. */
    public AutoscalerLoop loop() {
        return loop;
    }

    public ControllerMetrics metrics() {
        return metrics;
    }

    /** Removes the job's controller series when they carry a job label of their own. */
    @Override
    public void close() {
        if (jobLabel != null) {
            metrics.forget(jobLabel);
        }
    }
}
