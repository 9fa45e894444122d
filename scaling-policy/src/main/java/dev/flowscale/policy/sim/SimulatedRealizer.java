package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingRealizer;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Rescales the simulated job: it goes down for {@code downtime} and restarts at the new
 * parallelism.
 */
public final class SimulatedRealizer implements ScalingRealizer {

    private final DataflowModel model;
    private final Duration downtime;

    public SimulatedRealizer(DataflowModel model, Duration downtime) {
        this.model = model;
        this.downtime = downtime;
    }

    @Override
    public CompletionStage<Void> realize(ScalingDecision decision) {
        return model.rescale(decision.newParallelism(), downtime);
    }
}
