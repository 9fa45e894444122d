package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.AutoscalerLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Drives the {@link AutoscalerLoop} (mode auto) against a {@link DataflowModel} with a {@link
 * ManualClock}: each step advances the clock, simulates the step, and ticks the loop. Same
 * scenario, settings and seed give the same trajectory. The loop keeps what a deployed one keeps
 * ({@link AutoscalerConfig#of}: 1,000 decisions, and four days of per-minute source rates).
 */
public final class Simulation {

    /** Where every simulation starts; any fixed instant would do. */
    public static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    private final Scenario scenario;
    private final Function<Clock, ScalingPolicy> policy;
    private final SimulationSettings settings;
    private final BiFunction<DataflowModel, Clock, ScalingRealizer> realizer;

    public Simulation(
            Scenario scenario, Function<Clock, ScalingPolicy> policy, SimulationSettings settings) {
        this(
                scenario,
                policy,
                settings,
                (model, clock) -> new SimulatedRealizer(model, settings.rescaleDowntime()));
    }

    /**
     * @param realizer how a rescale of the model goes (default: {@link SimulatedRealizer}, down for
     *     the settings' downtime)
     */
    public Simulation(
            Scenario scenario,
            Function<Clock, ScalingPolicy> policy,
            SimulationSettings settings,
            BiFunction<DataflowModel, Clock, ScalingRealizer> realizer) {
        this.scenario = scenario;
        this.policy = policy;
        this.settings = settings;
        this.realizer = realizer;
    }

    /** A simulation of the DS2 policy with the given configuration. */
    public static Simulation ds2(
            Scenario scenario, PolicyConfig config, SimulationSettings settings) {
        return new Simulation(scenario, clock -> new Ds2Policy(config, clock), settings);
    }

    public Trajectory run(Duration duration) {
        ManualClock clock = new ManualClock(EPOCH);
        DataflowModel model =
                new DataflowModel(
                        scenario,
                        clock,
                        settings.bufferSeconds(),
                        settings.noise(),
                        settings.seed());
        List<ScalingDecision> decisions = new ArrayList<>();
        AutoscalerLoop loop =
                new AutoscalerLoop(
                        AutoscalerConfig.of(Mode.AUTO, settings.policyInterval()),
                        policy.apply(clock),
                        new SimulatedMetrics(model, settings.step(), settings.windowLength()),
                        realizer.apply(model, clock),
                        List.of(decisions::add),
                        clock,
                        e -> {
                            throw new IllegalStateException("simulation failed", e);
                        });
        List<Trajectory.Point> points = new ArrayList<>();
        long steps = duration.dividedBy(settings.step());
        for (long i = 1; i <= steps; i++) {
            clock.advance(settings.step());
            model.step(settings.step());
            loop.tick();
            long second = Duration.between(EPOCH, clock.instant()).toSeconds();
            points.add(
                    new Trajectory.Point(
                            second,
                            model.topology().parallelism(),
                            model.totalBacklog(),
                            model.isRescaling()));
        }
        return new Trajectory(scenario, decisions, points, loop.rescaleDurations());
    }
}
