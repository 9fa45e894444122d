package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.ScalingRealizer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;

/**
 * A job under the autoscaler for one {@link Session}: a job on the embedded engine ({@link
 * EngineScaledRun}) or a Flink job it attached to ({@link AttachedFlinkJob}). It reports samples,
 * decisions and rescales to the listeners it was started with.
 */
interface ScaledRun extends AutoCloseable {

    /** Samples the job, and lets the autoscaler decide if its interval has passed. */
    Optional<ScalingDecision> tick();

    /** Parallelism per operator when the session began. */
    Map<String, Integer> initialParallelism();

    /** Parallelism per operator now. */
    Map<String, Integer> parallelism();

    /** Whether the job has ended by itself (a finite source ran out, or it was stopped). */
    boolean ended() throws InterruptedException;

    /** Seconds since the session began. */
    double elapsed();

    /** Whether a rescale is under way; it reports to the listeners when it ends. */
    boolean rescaling();

    /**
     * The one autoscaler assembly for a session's job: decisions go to the session's listeners, the
     * realizer's stage is timed as the rescale's downtime, errors go to stderr.
     */
    static JobAutoscaler autoscaler(
            JobAutoscaler.Settings settings,
            MetricsSource source,
            ScalingRealizer realizer,
            MeterRegistry registry,
            List<RunListener> listeners,
            DoubleSupplier elapsed) {
        return autoscaler(
                settings, UnaryOperator.identity(), source, realizer, registry, listeners, elapsed);
    }

    /** The same assembly with the DS2 policy wrapped, e.g. bounded by a Flink job's slots. */
    static JobAutoscaler autoscaler(
            JobAutoscaler.Settings settings,
            UnaryOperator<ScalingPolicy> bound,
            MetricsSource source,
            ScalingRealizer realizer,
            MeterRegistry registry,
            List<RunListener> listeners,
            DoubleSupplier elapsed) {
        DecisionListener publish =
                decision -> listeners.forEach(l -> l.onDecision(elapsed.getAsDouble(), decision));
        return new JobAutoscaler(
                settings,
                bound,
                source,
                realizer,
                List.of(publish),
                new JobAutoscaler.Reporting(
                        registry,
                        null,
                        Clock.systemUTC(),
                        error -> System.err.println("autoscaler: " + error)));
    }
}
