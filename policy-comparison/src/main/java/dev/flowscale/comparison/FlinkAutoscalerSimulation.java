package dev.flowscale.comparison;

import dev.flowscale.policy.sim.DataflowModel;
import dev.flowscale.policy.sim.ManualClock;
import dev.flowscale.policy.sim.Scenario;
import dev.flowscale.policy.sim.Simulation;
import dev.flowscale.policy.sim.SimulationSettings;
import dev.flowscale.policy.sim.Trajectory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.autoscaler.JobAutoScalerContext;
import org.apache.flink.autoscaler.JobAutoScalerImpl;
import org.apache.flink.autoscaler.ScalingExecutor;
import org.apache.flink.autoscaler.ScalingMetricEvaluator;
import org.apache.flink.autoscaler.config.AutoScalerOptions;
import org.apache.flink.autoscaler.state.InMemoryAutoScalerStateStore;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.metrics.NoOpMetricRegistry;
import org.apache.flink.runtime.metrics.groups.GenericMetricGroup;

/**
 * Drives the real Flink autoscaler ({@code JobAutoScalerImpl} of flink-autoscaler, with its
 * evaluator, executor and in-memory state store) against the simulator on a {@link ManualClock}:
 * each step advances the clock and the model, and every {@link #CONTROL_LOOP_INTERVAL} the
 * autoscaler runs once, as the standalone autoscaler's control loop would. The configuration is
 * Flink's defaults with only {@code job.autoscaler.enabled} set.
 */
public final class FlinkAutoscalerSimulation {

    /** {@code autoscaler.standalone.control-loop.interval}'s default. */
    public static final Duration CONTROL_LOOP_INTERVAL = Duration.ofSeconds(10);

    static final Duration FAST_STABILIZATION = Duration.ofMinutes(1);
    static final Duration FAST_METRICS_WINDOW = Duration.ofMinutes(5);
    static final Duration FAST_CATCH_UP = Duration.ofMinutes(5);
    static final Duration FAST_SCALE_DOWN_INTERVAL = Duration.ofMinutes(5);

    private final Scenario scenario;
    private final SimulationSettings settings;
    private final Configuration configuration;

    public FlinkAutoscalerSimulation(Scenario scenario, SimulationSettings settings) {
        this(scenario, settings, defaults());
    }

    public FlinkAutoscalerSimulation(
            Scenario scenario, SimulationSettings settings, Configuration configuration) {
        this.scenario = scenario;
        this.settings = settings;
        this.configuration = configuration;
    }

    /** Flink's autoscaler defaults, switched on. */
    public static Configuration defaults() {
        Configuration conf = new Configuration();
        conf.set(AutoScalerOptions.AUTOSCALER_ENABLED, true);
        return conf;
    }

    /**
     * Flink's defaults with the windows shortened as users tune a reactive autoscaler, following
     * the example in the flink-kubernetes-operator's autoscaler documentation (stabilization 1 min,
     * metrics window 5 min, catch-up 5 min), and a scale-down interval of 5 min instead of an hour.
     * The target utilization and its boundary stay at Flink's defaults (0.7 ± 0.3): they set how
     * much headroom it keeps, not how fast it reacts.
     */
    public static Configuration fastWindows() {
        Configuration conf = defaults();
        conf.set(AutoScalerOptions.STABILIZATION_INTERVAL, FAST_STABILIZATION);
        conf.set(AutoScalerOptions.METRICS_WINDOW, FAST_METRICS_WINDOW);
        conf.set(AutoScalerOptions.CATCH_UP_DURATION, FAST_CATCH_UP);
        conf.set(AutoScalerOptions.SCALE_DOWN_INTERVAL, FAST_SCALE_DOWN_INTERVAL);
        return conf;
    }

    /** The run and what the autoscaler reported along the way. */
    public record Run(Trajectory trajectory, List<RecordingEventHandler.Event> events) {}

    public Run run(Duration duration) {
        ManualClock clock = new ManualClock(Simulation.EPOCH);
        DataflowModel model =
                new DataflowModel(
                        scenario,
                        clock,
                        settings.bufferSeconds(),
                        settings.noise(),
                        settings.seed());
        SimulatedJobView job = new SimulatedJobView(scenario, model);
        RecordingEventHandler events = new RecordingEventHandler();
        SimulatedScalingRealizer realizer =
                new SimulatedScalingRealizer(job, settings.rescaleDowntime(), clock);
        JobAutoScalerImpl<String, JobAutoScalerContext<String>> autoscaler =
                autoscaler(job, events, realizer, clock);
        JobID jobId = new JobID();
        var metricGroup = new GenericMetricGroup(NoOpMetricRegistry.INSTANCE, null, "simulation");
        List<Trajectory.Point> points = new ArrayList<>();
        long steps = duration.dividedBy(settings.step());
        long perLoop = CONTROL_LOOP_INTERVAL.dividedBy(settings.step());
        for (long i = 1; i <= steps; i++) {
            clock.advance(settings.step());
            model.step(settings.step());
            if (i % perLoop == 0) {
                scale(autoscaler, context(jobId, metricGroup, model.isRescaling()));
            }
            points.add(
                    new Trajectory.Point(
                            Duration.between(Simulation.EPOCH, clock.instant()).toSeconds(),
                            model.topology().parallelism(),
                            model.totalBacklog(),
                            model.isRescaling()));
        }
        return new Run(
                new Trajectory(scenario, realizer.decisions(), points, List.of()), events.events());
    }

    private JobAutoScalerImpl<String, JobAutoScalerContext<String>> autoscaler(
            SimulatedJobView job,
            RecordingEventHandler events,
            SimulatedScalingRealizer realizer,
            Clock clock) {
        var store = new InMemoryAutoScalerStateStore<String, JobAutoScalerContext<String>>();
        var executor = new ScalingExecutor<>(events, store);
        var autoscaler =
                new JobAutoScalerImpl<>(
                        new SimulatedMetricsCollector(job, clock),
                        new ScalingMetricEvaluator(),
                        executor,
                        events,
                        realizer,
                        store);
        SimulatedClocks.inject(autoscaler, executor, clock);
        return autoscaler;
    }

    /**
     * The job as the operator would describe it now; it has no REST client, the collector needs
     * none.
     */
    private JobAutoScalerContext<String> context(
            JobID jobId, GenericMetricGroup metricGroup, boolean restarting) {
        return new JobAutoScalerContext<>(
                scenario.name(),
                jobId,
                restarting ? JobStatus.RESTARTING : JobStatus.RUNNING,
                configuration,
                metricGroup,
                () -> null);
    }

    private static void scale(
            JobAutoScalerImpl<String, JobAutoScalerContext<String>> autoscaler,
            JobAutoScalerContext<String> context) {
        try {
            autoscaler.scale(context);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "the Flink autoscaler failed on job " + context.getJobKey(), e);
        }
    }

    /**
     * flink-autoscaler 1.10.0 reads time from clocks it lets only its own tests replace: a
     * package-private setter on {@code JobAutoScalerImpl} and a protected one on the {@code
     * JobVertexScaler} inside {@code ScalingExecutor} (which times the scale-down interval).
     * Without them the simulated hours would run on the wall clock.
     */
    static final class SimulatedClocks {

        private SimulatedClocks() {}

        static void inject(
                JobAutoScalerImpl<?, ?> autoscaler, ScalingExecutor<?, ?> executor, Clock clock) {
            try {
                call(autoscaler, JobAutoScalerImpl.class, clock);
                Field scaler = ScalingExecutor.class.getDeclaredField("jobVertexScaler");
                scaler.setAccessible(true);
                Object vertexScaler = scaler.get(executor);
                call(vertexScaler, vertexScaler.getClass(), clock);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(
                        "cannot set the Flink autoscaler's clocks; its internals changed"
                                + " (this harness targets flink-autoscaler 1.10.0)",
                        e);
            }
        }

        private static void call(Object target, Class<?> type, Clock clock)
                throws ReflectiveOperationException {
            Method setClock = type.getDeclaredMethod("setClock", Clock.class);
            setClock.setAccessible(true);
            setClock.invoke(target, clock);
        }
    }
}
