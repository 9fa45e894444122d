package dev.flowscale.policy.loop;

import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsProvider;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.ds2.Ds2Policy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A job src (p=1) → op (p=2) whose every window makes exact DS2 ask for 10 instances of op, and a
 * loop in mode auto on it that decides every 10 s.
 */
final class OverloadedJob {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final JobTopology JOB =
            new JobTopology(
                    "job",
                    List.of(OperatorSpec.of("src", 1), OperatorSpec.of("op", 2)),
                    List.of(new Edge("src", "op")));

    private OverloadedJob() {}

    static AutoscalerLoop loop(ScalingRealizer realizer, Clock clock, Consumer<Throwable> errors) {
        MetricsWindow window =
                MetricsWindow.of(
                        T0.minusSeconds(10),
                        T0,
                        List.of(
                                OperatorMetrics.of("src", 1, 5000, 5000, 1000, 1000)
                                        .withSource(1000, 0.0),
                                OperatorMetrics.of("op", 2, 200, 200, 200, 200)));
        MetricsProvider metrics =
                new MetricsProvider() {
                    @Override
                    public JobTopology topology() {
                        return JOB;
                    }

                    @Override
                    public Optional<MetricsWindow> currentWindow() {
                        return Optional.of(window);
                    }
                };
        return new AutoscalerLoop(
                new AutoscalerConfig(Mode.AUTO, Duration.ofSeconds(10), 3),
                new Ds2Policy(PolicyConfig.exactDs2(), clock),
                metrics,
                realizer,
                List.of(),
                clock,
                errors);
    }
}
