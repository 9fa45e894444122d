package dev.flowscale.operator.flink;

import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.RescaleInputCost;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.ReconcileStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input a session target's in-place rescale cost ({@code status.lastRescale.inputCostSeconds}),
 * found after it ended: Flink's adaptive scheduler restarts the job from its latest completed
 * checkpoint, and its checkpoint statistics show that restore a few seconds late (they are cached),
 * so each pass asks once and none waits. Not found within {@link #LOOK}, it stays unknown.
 */
final class FlinkInputCost {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkInputCost.class);

    /**
     * How long after the rescale the restore is looked for: Flink's cache (3 s) many times over.
     */
    static final Duration LOOK = Duration.ofSeconds(60);

    private FlinkInputCost() {}

    /** Whether the last rescale's input cost is still looked for. */
    static boolean pending(StreamJobStatus status) {
        return status.lastRescale != null
                && Boolean.TRUE.equals(status.lastRescale.inputCostPending);
    }

    /**
     * Looks once: records the cost when Flink shows the restore, or nothing once {@link #LOOK}
     * passed.
     */
    static void look(ReconcileStatus pass, FlinkRestClient rest, Clock clock) {
        RescaleOutcome last = pass.status().lastRescale;
        Instant running = Instant.parse(last.time);
        Instant put = running.minusNanos((long) (last.downtimeSeconds * 1e9));
        Optional<Duration> cost = read(rest, pass.status().flinkJob, put, running);
        if (cost.isEmpty() && clock.instant().isBefore(running.plus(LOOK))) {
            return;
        }
        if (cost.isEmpty()) {
            LOG.info(
                    "StreamJob {}/{}: Flink showed no restore for the in-place rescale of {} within"
                            + " {}; its input cost stays unknown",
                    pass.job().getMetadata().getNamespace(),
                    pass.job().getMetadata().getName(),
                    last.time,
                    LOOK);
        }
        pass.write(
                status -> {
                    RescaleOutcome now = status.lastRescale;
                    if (now != null && Objects.equals(now.time, last.time)) {
                        now.inputCostSeconds = cost.map(c -> c.toNanos() / 1e9).orElse(null);
                        now.inputCostPending = null;
                    }
                });
    }

    private static Optional<Duration> read(
            FlinkRestClient rest, String jobId, Instant put, Instant running) {
        try {
            return RescaleInputCost.read(rest, jobId, put, running);
        } catch (FlinkConnectorException e) {
            return Optional.empty(); // asked again by the next pass
        }
    }
}
