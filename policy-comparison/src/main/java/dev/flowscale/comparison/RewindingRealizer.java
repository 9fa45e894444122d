package dev.flowscale.comparison;

import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.sim.DataflowModel;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Rescales the simulated job as Flink's adaptive scheduler does: the job goes down for {@code
 * downtime} and restarts from its latest completed checkpoint, so its sources owe again everything
 * they emitted since that checkpoint's trigger ({@code checkpointAge} before the rescale, at most
 * the time the job has run). The rescale costs checkpoint age + downtime of input; with {@code
 * reportsInputCost} the realizer reports it as {@code FlinkRescaler} does, without it the loop
 * learns only the downtime (flowscale before it measured the input cost).
 */
final class RewindingRealizer implements ScalingRealizer {
    private final DataflowModel model;
    private final Duration downtime;
    private final Duration checkpointAge;
    private final boolean reportsInputCost;
    private final Clock clock;
    private Optional<Duration> lastInputCost = Optional.empty();

    RewindingRealizer(
            DataflowModel model,
            Duration downtime,
            Duration checkpointAge,
            boolean reportsInputCost,
            Clock clock) {
        this.model = model;
        this.downtime = downtime;
        this.checkpointAge = checkpointAge;
        this.reportsInputCost = reportsInputCost;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Void> realize(ScalingDecision decision) {
        CompletionStage<Void> done = model.rescale(decision.newParallelism(), downtime);
        Duration ran = Duration.between(model.start(), clock.instant());
        Duration age = checkpointAge.compareTo(ran) <= 0 ? checkpointAge : ran;
        // the model is down now: a step of the checkpoint's age, with the clock held, only adds
        // what the sources offered over that long to what they owe (no records processed)
        if (!age.isZero()) {
            model.step(age);
        }
        lastInputCost = Optional.of(age.plus(downtime));
        return done;
    }

    @Override
    public String pathOf(ScalingDecision decision) {
        return "in-place";
    }

    @Override
    public Optional<Duration> lastInputCost() {
        return reportsInputCost ? lastInputCost : Optional.empty();
    }
}
