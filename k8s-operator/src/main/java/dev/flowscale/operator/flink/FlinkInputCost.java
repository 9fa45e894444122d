package dev.flowscale.operator.flink;

import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.RescaleInputCost;
import dev.flowscale.operator.api.PendingChange;
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
 * The input a session target's in-place rescale cost ({@code status.lastRescale.inputCostSeconds}):
 * Flink's adaptive scheduler restarts the job from its latest completed checkpoint, so its sources
 * re-read the input since that checkpoint's trigger. The change records the latest checkpoint
 * before it ({@code pending.checkpointTrigger}), which bounds the cost when it ends; the passes
 * after it ask once each, for {@link #LOOK}, whether Flink's checkpoint statistics (cached, a few
 * seconds late) name the checkpoint restored, which makes it exact. None waits.
 */
final class FlinkInputCost {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkInputCost.class);

    /** How long after the rescale the restore is looked for: Flink's cache (3 s) five times. */
    static final Duration LOOK = Duration.ofSeconds(15);

    private FlinkInputCost() {}

    /** Whether the last rescale's input cost is still looked for. */
    static boolean pending(StreamJobStatus status) {
        return status.lastRescale != null
                && Boolean.TRUE.equals(status.lastRescale.inputCostPending);
    }

    /**
     * Where an in-place restart resumes at the earliest (RFC 3339): the latest completed
     * checkpoint's trigger, else the job's start; null when Flink names neither.
     */
    static String latestTrigger(FlinkRestClient rest, String jobId) {
        try {
            return RescaleInputCost.resumesAtLeastFrom(rest, jobId)
                    .map(Instant::toString)
                    .orElse(null);
        } catch (FlinkConnectorException e) {
            return null; // the rescale's cost then stays unknown unless Flink shows the restore
        }
    }

    /** The most the change cost in seconds, from {@code pending.checkpointTrigger}; else null. */
    static Double atMost(PendingChange p, Instant running) {
        if (p.checkpointTrigger == null) {
            return null;
        }
        Duration most =
                RescaleInputCost.atMost(
                        Instant.parse(p.checkpointTrigger), Instant.parse(p.started), running);
        return most.toNanos() / 1e9;
    }

    /**
     * Looks once: makes the cost exact when Flink names the checkpoint restored; keeps the bound
     * once {@link #LOOK} passed without.
     */
    static void look(ReconcileStatus pass, FlinkRestClient rest, Clock clock) {
        RescaleOutcome last = pass.status().lastRescale;
        Instant running = Instant.parse(last.time);
        Instant put = running.minusNanos((long) (last.downtimeSeconds * 1e9));
        Optional<Duration> cost = read(rest, pass.status().flinkJob, put, running);
        if (cost.isEmpty() && clock.instant().isBefore(running.plus(LOOK))) {
            return;
        }
        LOG.info(
                "StreamJob {}/{}: the in-place rescale of {} {}",
                pass.job().getMetadata().getNamespace(),
                pass.job().getMetadata().getName(),
                last.time,
                cost.map(c -> "cost " + c.toMillis() / 1000.0 + " s of input")
                        .orElse(
                                "shows no restore in Flink's checkpoint statistics within "
                                        + LOOK
                                        + " (latest.restored: "
                                        + latestRestore(rest, pass.status().flinkJob)
                                        + "): its input cost is at most "
                                        + last.inputCostSeconds
                                        + " s, from the latest checkpoint before it (or the"
                                        + " job's start)"));
        pass.write(
                status -> {
                    RescaleOutcome now = status.lastRescale;
                    if (now != null && Objects.equals(now.time, last.time)) {
                        cost.ifPresent(c -> now.inputCostSeconds = c.toNanos() / 1e9);
                        now.inputCostPending = null;
                    }
                });
    }

    /** Flink's latest.restored of the job, as it answers, for the log. */
    private static String latestRestore(FlinkRestClient rest, String jobId) {
        try {
            return rest.get("jobs/" + jobId + "/checkpoints")
                    .path("latest")
                    .path("restored")
                    .toString();
        } catch (FlinkConnectorException e) {
            return "unknown: " + e.getMessage();
        }
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
