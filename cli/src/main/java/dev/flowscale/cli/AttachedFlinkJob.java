package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRescaler;
import dev.flowscale.flink.FlinkRestMetricsSource;
import dev.flowscale.flink.JarResubmission;
import dev.flowscale.flink.SlotBoundPolicy;
import dev.flowscale.flink.SlotLimits;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.ScalingDecision;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A running Flink job under the autoscaler: the one {@link JobAutoscaler} assembly on Flink's REST
 * API ({@link FlinkRestMetricsSource}), realizing decisions with the {@link FlinkRescaler} (in
 * place on the adaptive scheduler, else through a savepoint when the job's jar is known), never
 * asking for more task slots than the job may use ({@link SlotBoundPolicy}). Each sample the
 * autoscaler takes is also shown to the session's listeners, so the live view and the report see
 * what the policy saw, read once.
 */
final class AttachedFlinkJob implements ScaledRun {
    private static final Set<String> ENDED = Set.of("FINISHED", "CANCELED", "FAILED");
    private final FlinkJobRef job;
    private final FlinkRescaler realizer;
    private final JobAutoscaler autoscaler;
    private final List<RunListener> listeners;
    private final Map<String, Integer> initial;
    private final long startNanos = System.nanoTime();
    private volatile Map<String, Integer> parallelism;

    /**
     * @param jar how to resubmit the job on the savepoint path; empty: in place only
     * @param slots the task slots the job may use, which bound every decision
     * @param rescaleTimeout how long a rescale may take before it is rolled back
     */
    AttachedFlinkJob(
            FlinkJobRef job,
            Optional<JarResubmission> jar,
            SlotLimits slots,
            JobAutoscaler.Settings settings,
            Duration rescaleTimeout,
            MeterRegistry registry,
            List<RunListener> listeners) {
        Clock clock = Clock.systemUTC();
        this.job = job;
        this.listeners = List.copyOf(listeners);
        this.initial = job.read().parallelism();
        this.parallelism = initial;
        this.realizer = new FlinkRescaler(job, jar, rescaleTimeout, clock, List.of(this::rescaled));
        FlinkRestMetricsSource source = new FlinkRestMetricsSource(job, slots, clock);
        this.autoscaler =
                ScaledRun.autoscaler(
                        settings,
                        SlotBoundPolicy.by(source::slotLimit, source::checkpointNote),
                        new Shown(source),
                        realizer,
                        registry,
                        this.listeners,
                        this::elapsed);
    }

    @Override
    public Optional<ScalingDecision> tick() {
        return autoscaler.tick();
    }

    @Override
    public Map<String, Integer> initialParallelism() {
        return initial;
    }

    @Override
    public Map<String, Integer> parallelism() {
        return parallelism;
    }

    /** The job ended in Flink (finished, canceled, failed) while no rescale was under way. */
    @Override
    public boolean ended() {
        if (realizer.inProgress()) {
            return false;
        }
        try {
            return ENDED.contains(job.read().state());
        } catch (RuntimeException e) {
            return false; // an endpoint that does not answer now: the sampling reports it
        }
    }

    @Override
    public boolean rescaling() {
        return realizer.inProgress();
    }

    @Override
    public double elapsed() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private void rescaled(RescaleReport report) {
        RescaleReport shown = changedOnly(report);
        if (report.succeeded()) {
            parallelism = report.to();
        }
        listeners.forEach(l -> l.onRescale(elapsed(), shown));
    }

    /**
     * The Flink rescale as the cli's views show one: only the operators it changes (the Flink
     * rescaler reports every operator's parallelism before and after).
     */
    static RescaleReport changedOnly(RescaleReport report) {
        Map<String, Integer> from = new LinkedHashMap<>();
        Map<String, Integer> to = new LinkedHashMap<>();
        report.to()
                .forEach(
                        (op, p) -> {
                            Integer before = report.from().get(op);
                            if (!p.equals(before)) {
                                if (before != null) { // unknown when Flink did not answer
                                    from.put(op, before);
                                }
                                to.put(op, p);
                            }
                        });
        return new RescaleReport(
                report.job(),
                report.started(),
                from,
                to,
                report.savepoint(),
                report.downtime(),
                report.failure(),
                report.path(),
                report.inputCost(),
                report.note());
    }

    /**
     * A Flink sample as the engine's snapshot, which the live view and the recorder read: the same
     * counter records, stamped with the sample's time.
     */
    static JobMetricsSnapshot asSnapshot(MetricsSample sample) {
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (OperatorSpec op : sample.topology().operators()) {
            parallelism.put(op.id(), op.parallelism());
        }
        long at = sample.time().getEpochSecond() * 1_000_000_000L + sample.time().getNano();
        return new JobMetricsSnapshot(
                sample.topology().jobName(), at, parallelism, sample.instances(), sample.runId());
    }

    @Override
    public void close() {
        realizer.close();
        autoscaler.close();
    }

    /** The Flink job's name and vertices now, for the banner. */
    static String shape(FlinkJob now) {
        return "'" + now.name() + "' (" + now.id() + ") " + now.parallelism();
    }

    /** Shows each sample the autoscaler takes to the session's listeners. */
    private final class Shown implements MetricsSource {
        private final MetricsSource source;

        Shown(MetricsSource source) {
            this.source = source;
        }

        private String lastFailure = "";

        @Override
        public MetricsSample sample() {
            MetricsSample sample;
            try {
                sample = source.sample();
            } catch (RuntimeException e) {
                // the window starts again after a failed sample: say why there is no decision
                if (!String.valueOf(e.getMessage()).equals(lastFailure)) {
                    lastFailure = String.valueOf(e.getMessage());
                    System.err.println("flowscale: no sample: " + lastFailure);
                }
                throw e;
            }
            lastFailure = "";
            JobMetricsSnapshot shown = asSnapshot(sample);
            parallelism = shown.parallelism();
            listeners.forEach(l -> l.onSample(elapsed(), shown));
            return sample;
        }

        @Override
        public String describe() {
            return source.describe();
        }
    }
}
