package dev.flowscale.policy.api;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Port to the realizers: realizes (carries out) a {@link Outcome#SCALE} decision by rescaling the
 * job (stop-with-savepoint, restore at the new parallelism). Returns without waiting; the stage
 * completes when the job runs at the new parallelism, or exceptionally when the rescale failed. A
 * realizer that only records the target for an executor is a {@link RecordingRealizer}.
 */
public interface ScalingRealizer {

    CompletionStage<Void> realize(ScalingDecision decision);

    /**
     * The path this realizer takes for the decision ({@link RescaleRecord#IN_PLACE} or {@link
     * RescaleRecord#RESTART}), recorded with the rescale so its downtime is learned per path.
     */
    default String pathOf(ScalingDecision decision) {
        return RescaleRecord.RESTART;
    }

    /**
     * The input the latest rescale this realizer finished successfully cost, where it can tell:
     * from the point the job's sources resumed from (a restored checkpoint's trigger) until the job
     * ran again. Asked once the stage of {@link #realize} completed; a wrapper passes it on. Empty
     * (the default) where the job resumes exactly where it stopped, so the downtime is the cost.
     */
    default Optional<Duration> lastInputCost() {
        return Optional.empty();
    }

    /**
     * A realizer that carries decisions out with {@code realize} (which wraps {@code inner}'s, e.g.
     * to time or report them) and takes the path and the input cost from {@code inner}.
     */
    static ScalingRealizer wrapping(
            ScalingRealizer inner, Function<ScalingDecision, CompletionStage<Void>> realize) {
        return new ScalingRealizer() {
            @Override
            public CompletionStage<Void> realize(ScalingDecision decision) {
                return realize.apply(decision);
            }

            @Override
            public String pathOf(ScalingDecision decision) {
                return inner.pathOf(decision);
            }

            @Override
            public Optional<Duration> lastInputCost() {
                return inner.lastInputCost();
            }
        };
    }
}
